// Express with the logger's OpenTelemetry HTTP server metrics, served to Prometheus: the line
// and the metrics come from one measurement of each request. The application registers its
// MeterProvider (here with the Prometheus exporter as its reader) and the logger records
// through the global one (`metrics: true`). GET /metrics answers Prometheus's scrape in its
// text format; it is registered before the logger, so the scrapes are in neither the lines nor
// the metrics, however the path is spelled (Express matches /METRICS too, where `exclude`'s
// paths are compared as written).
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import express from 'express';
import { logger } from 'httpware';

// The exporter's own server is not started: the app serves /metrics itself.
const exporter = new PrometheusExporter({ preventServerStart: true });
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [exporter] }));

const app = express();
app.get('/metrics', (req, res) => exporter.getMetricsRequestHandler(req, res));

app.use(logger('combined', { metrics: true }));

app.get('/users/:id', (req, res) => {
  res.json({ id: req.params.id });
});

app.get('/fail', (_req, res) => {
  res.status(500).json({ error: 'failed on purpose' });
});

const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  process.stdout.write(`metrics example listening on http://localhost:${server.address().port}\n`);
});

// The OpenTelemetry metrics SDK as an application sets it up, read on demand: a MeterProvider
// with a reader whose `collect()` gives what an exporter would be handed now (cumulative).
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
} from '@opentelemetry/sdk-metrics';

/** A reader collected by the test (no timer, no exporter). */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface MetricsSdk {
  readonly provider: MeterProvider;
  /** A meter of the provider, to pass as `metrics: { meter }`. */
  readonly meter: ReturnType<MeterProvider['getMeter']>;
  /** Every metric collected now, by name. */
  collect(): Promise<Map<string, MetricData>>;
}

export function metricsSdk(): MetricsSdk {
  const reader = new OnDemandReader();
  const provider = new MeterProvider({ readers: [reader] });
  return {
    provider,
    meter: provider.getMeter('test'),
    async collect() {
      const { resourceMetrics } = await reader.collect();
      const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
      return new Map(metrics.map((metric) => [metric.descriptor.name, metric]));
    },
  };
}

/** The data points of a histogram. */
export function histogramPoints(metric: MetricData | undefined): DataPoint<Histogram>[] {
  return (metric?.dataPoints ?? []) as DataPoint<Histogram>[];
}

/** The data points of a sum (counter, up-down counter). */
export function sumPoints(metric: MetricData | undefined): DataPoint<number>[] {
  return (metric?.dataPoints ?? []) as DataPoint<number>[];
}

/** Every attribute value of every data point of every metric, as text. */
export function attributeValues(metrics: Map<string, MetricData>): string[] {
  return [...metrics.values()].flatMap((metric) =>
    (metric.dataPoints as DataPoint<unknown>[]).flatMap((point) =>
      Object.values(point.attributes).map(String),
    ),
  );
}

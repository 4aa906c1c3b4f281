import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CrawlerNetwork } from './crawler-network.js';
import { DomainFunction, type SharedFunctionSettings } from './domain-function.js';

export interface CrawlSettings {
  /**
   * Crawled source → the origins its crawler may reach, by the variable that names each (set in the
   * function's environment: the crawler's allow-list is exactly these), and other sources whose files
   * its function loads first.
   */
  sources: Record<string, { origins: Record<string, string>; alsoLoads?: string[] }>;
  /** How often a crawl's function wakes to continue its crawl from the checkpoint. @default 15 minutes */
  tick?: Duration;
  /**
   * `open` (default): Lambda's own network; the crawler reaches only its origins because its client
   * refuses every other one, and its role holds nothing but the table (ADR 0036). `firewalled`: also a
   * network whose DNS resolves only the sources' names, HTTPS out only, through a NAT gateway
   * (about USD 33 a month).
   */
  egress?: 'firewalled' | 'open';
}

export interface ScheduledIngestionProps {
  shared: SharedFunctionSettings;
  /** Source name → origins (URLs, or paths inside the bundle such as `data/sample/...`). */
  sources: Record<string, string[]>;
  /** How often each source is ingested, e.g. Duration.days(1); for a crawled source, how often a new crawl starts. */
  every: Duration;
  /** Sources refreshed from their live sites (ADR 0035); absent: every source loads its files only. */
  crawl?: CrawlSettings;
  alarmAction?: IAlarmAction;
}

/** Lambda's limit: a crawl run stops a little before it and the next tick continues. */
const CRAWL_TIMEOUT = Duration.minutes(15);

/**
 * One function per source on an EventBridge schedule: it may write the table and nothing else.
 * Failed runs are retried by EventBridge and then parked in a dead-letter queue; an alarm fires on
 * function errors or on anything in the queue. A crawled source's function wakes every few minutes
 * to continue its crawl from the checkpoint (in the firewalled crawler network when asked for), and
 * has alarms on failed crawl runs and on a crawl that has not completed for twice its interval.
 */
export class ScheduledIngestion extends Construct {
  readonly functions: Record<string, DomainFunction> = {};
  readonly deadLetterQueue: Queue;
  readonly rate: string;
  readonly network?: CrawlerNetwork;

  constructor(scope: Construct, id: string, props: ScheduledIngestionProps) {
    super(scope, id);
    this.rate = Schedule.rate(props.every).expressionString;
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the ingestion schedules (EventBridge target DLQ); nothing consumes it automatically, an alarm watches it.',
    });

    const crawled = props.crawl?.sources ?? {};
    if (Object.keys(crawled).length && (props.crawl?.egress ?? 'open') === 'firewalled') {
      const hosts = Object.values(crawled).flatMap((c) => Object.values(c.origins).map((origin) => new URL(origin).hostname));
      this.network = new CrawlerNetwork(this, 'CrawlerNetwork', { sourceHosts: hosts });
    }
    // A source another crawled source's function loads first has no function of its own.
    const loadedBy = new Map(Object.entries(crawled).flatMap(([source, c]) => (c.alsoLoads ?? []).map((other) => [other, source] as const)));

    for (const [source, origins] of Object.entries({ ...Object.fromEntries(Object.keys(crawled).map((s) => [s, []])), ...props.sources })) {
      if (loadedBy.has(source)) continue;
      const crawl = crawled[source];
      const ownOrigins: (string | { source: string; origin: string })[] = [
        ...(crawl?.alsoLoads ?? []).flatMap((other) => (props.sources[other] ?? []).map((origin) => ({ source: other, origin }))),
        ...origins,
      ];
      const fn = new DomainFunction(this, pascal(source), {
        shared: props.shared,
        entry: 'functions/ingest/handler.ts',
        description: crawl ? `Tutor Nexus crawl of ${source} from its live site (continues from its checkpoint)` : `Tutor Nexus scheduled ingestion: ${source}`,
        tableAccess: 'readWrite',
        timeout: crawl ? CRAWL_TIMEOUT : Duration.minutes(10),
        memorySize: crawl ? 1536 : 1024,
        environment: {
          TN_INGEST_SOURCE: source,
          TN_INGEST_ORIGINS: JSON.stringify(ownOrigins),
          ...(crawl ? { TN_CRAWL: 'on', TN_CRAWL_EVERY_HOURS: String(props.every.toHours()), ...crawl.origins } : {}),
        },
        copyIntoBundle: ownOrigins.some((o) => (typeof o === 'string' ? o : o.origin).startsWith('data/')) ? ['data/sample'] : undefined,
        // Runs of one source share its record packs: a retry or a late schedule waits for the run in progress.
        reservedConcurrentExecutions: 1,
        ...(crawl && this.network ? { network: { vpc: this.network.vpc, securityGroup: this.network.securityGroup, subnets: this.network.subnets } } : {}),
      });
      if (crawl) {
        // A heartbeat that could not run in time is superseded by the next one: never queued, never retried.
        fn.fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(15) });
      }
      new Rule(this, `${pascal(source)}Schedule`, {
        schedule: Schedule.rate(crawl ? (props.crawl?.tick ?? Duration.minutes(15)) : props.every),
        description: crawl ? `Continue or start the crawl of ${source}` : `Ingest ${source}`,
        targets: [new LambdaFunction(fn.fn, { deadLetterQueue: this.deadLetterQueue, retryAttempts: 2, maxEventAge: Duration.hours(2) })],
      });
      this.alarmOnAny(`${pascal(source)}Errors`, `Ingestion of ${source} failed`, fn.fn.metricErrors({ period: Duration.hours(1) }), props.alarmAction);
      if (crawl) this.crawlAlarms(source, props.every, props.alarmAction);
      this.functions[source] = fn;
    }

    this.alarmOnAny(
      'DeadLettersVisible',
      'Scheduled ingestion events were parked in the dead-letter queue after retries',
      this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(15) }),
      props.alarmAction,
    );
  }

  /** A failed crawl run; and a crawl that has not completed for twice its interval (or whose heartbeat stopped). */
  private crawlAlarms(source: string, every: Duration, action?: IAlarmAction): void {
    const metric = (metricName: string, statistic: string) =>
      new Metric({ namespace: 'TutorNexus', metricName, dimensionsMap: { service: 'tutor-nexus', source }, statistic, period: Duration.hours(1) });
    this.alarmOnAny(`${pascal(source)}CrawlRunsFailed`, `A crawl run of ${source} failed (pages kept failing, or a list it needs could not be read)`, metric('CrawlRunsFailed', 'Sum'), action);
    const stale = new Alarm(this, `${pascal(source)}CrawlStale`, {
      alarmDescription: `The crawl of ${source} has not completed for ${every.toHours() * 2} hours, or its function stopped reporting`,
      metric: metric('CrawlAgeHours', 'Maximum'),
      threshold: every.toHours() * 2,
      evaluationPeriods: 2,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      // The function reports every tick: silence is itself a failure.
      treatMissingData: TreatMissingData.BREACHING,
    });
    if (action) stale.addAlarmAction(action);
  }

  /** An alarm that fires on the first occurrence: one failed run or one parked event is worth a look. */
  private alarmOnAny(id: string, description: string, metric: IMetric, action?: IAlarmAction): void {
    const alarm = new Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (action) alarm.addAlarmAction(action);
  }
}

const pascal = (name: string) => name.replace(/(^|-)([a-z])/g, (_, _dash, c: string) => c.toUpperCase());

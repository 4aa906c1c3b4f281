import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DomainFunction, type SharedFunctionSettings } from './domain-function.js';

export interface ScheduledIngestionProps {
  shared: SharedFunctionSettings;
  /** Source name → origins (URLs, or paths inside the bundle such as `data/sample/...`). */
  sources: Record<string, string[]>;
  /** How often each source is ingested, e.g. Duration.days(1). */
  every: Duration;
  alarmAction?: IAlarmAction;
}

/**
 * One function per source on an EventBridge schedule: it may write the table and nothing else.
 * Failed runs are retried by EventBridge and then parked in a dead-letter queue; an alarm fires on
 * function errors or on anything in the queue.
 */
export class ScheduledIngestion extends Construct {
  readonly functions: Record<string, DomainFunction> = {};
  readonly deadLetterQueue: Queue;
  readonly rate: string;

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

    for (const [source, origins] of Object.entries(props.sources)) {
      const fn = new DomainFunction(this, pascal(source), {
        shared: props.shared,
        entry: 'functions/ingest/handler.ts',
        description: `Tutor Nexus scheduled ingestion: ${source}`,
        tableAccess: 'readWrite',
        timeout: Duration.minutes(10),
        memorySize: 1024,
        environment: { TN_INGEST_SOURCE: source, TN_INGEST_ORIGINS: JSON.stringify(origins) },
        copyIntoBundle: origins.some((o) => o.startsWith('data/')) ? ['data/sample'] : undefined,
        // Runs of one source share its record packs: a retry or a late schedule waits for the run in progress.
        reservedConcurrentExecutions: 1,
      });
      new Rule(this, `${pascal(source)}Schedule`, {
        schedule: Schedule.rate(props.every),
        description: `Ingest ${source}`,
        targets: [new LambdaFunction(fn.fn, { deadLetterQueue: this.deadLetterQueue, retryAttempts: 2, maxEventAge: Duration.hours(2) })],
      });
      this.alarmOnAny(`${pascal(source)}Errors`, `Ingestion of ${source} failed`, fn.fn.metricErrors({ period: Duration.hours(1) }), props.alarmAction);
      this.functions[source] = fn;
    }

    this.alarmOnAny(
      'DeadLettersVisible',
      'Scheduled ingestion events were parked in the dead-letter queue after retries',
      this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(15) }),
      props.alarmAction,
    );
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

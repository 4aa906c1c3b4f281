import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface ApiAlarmsProps {
  api: RestApi;
  /** Every function, by a short name used in the alarm ids (`router`, `user`, …). */
  functions: Record<string, IFunction>;
  /** @default 10 seconds (streamed answers count until their last byte) */
  latencyP99Threshold?: Duration;
  /** Subscribed to the alarm topic when given. */
  alarmEmail?: string;
}

const PERIOD = Duration.minutes(5);

/** API 5XX and p99 latency, and errors and throttles of every function, all notifying one topic. */
export class ApiAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ApiAlarmsProps) {
    super(scope, id);
    // Publishing requires TLS. No customer key: alarm messages carry no customer data, and CloudWatch
    // cannot publish to a topic encrypted with the AWS managed SNS key.
    this.topic = new Topic(this, 'Topic', { displayName: 'Tutor Nexus alarms', enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const latency = props.latencyP99Threshold ?? Duration.seconds(10);
    this.add('Api5xx', props.api.metricServerError({ period: PERIOD, statistic: 'Sum' }), 5, 'API Gateway 5XX responses', 1);
    this.add('ApiLatencyP99', props.api.metricLatency({ period: PERIOD, statistic: 'p99' }), latency.toMilliseconds(), 'API Gateway p99 latency (ms)', 3);
    for (const [name, fn] of Object.entries(props.functions)) {
      this.add(`${name}Errors`, fn.metricErrors({ period: PERIOD, statistic: 'Sum' }), 1, `${name} function errors`, 1);
      this.add(`${name}Throttles`, fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }), 1, `${name} function throttles`, 1);
    }
  }

  private add(id: string, metric: IMetric, threshold: number, description: string, evaluationPeriods: number): void {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: `Tutor Nexus: ${description} at or above ${threshold}`,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
  }
}

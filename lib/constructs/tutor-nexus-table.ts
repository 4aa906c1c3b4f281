import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE_DEFINITION } from '../../functions/platform/store/table-definition.js';

/**
 * The single table. Key names, indexes and the TTL attribute come from TABLE_DEFINITION, the same
 * description local table creation uses, so the deployed table and DynamoDB Local cannot drift.
 */
export class TutorNexusTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const { partitionKey, sortKey, timeToLiveAttribute, globalSecondaryIndexes } = TABLE_DEFINITION;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: partitionKey, type: AttributeType.STRING },
      sortKey: { name: sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // AWS-managed key (aws/dynamodb): encrypted at rest with CloudTrail-visible key use, and no
      // customer key whose kms: permissions would have to be granted to every function.
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const index of globalSecondaryIndexes as readonly { indexName: string; partitionKey: string; sortKey?: string; nonKeyAttributes: readonly string[] }[]) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        ...(index.sortKey ? { sortKey: { name: index.sortKey, type: AttributeType.STRING } } : {}),
        projectionType: ProjectionType.INCLUDE,
        nonKeyAttributes: [...index.nonKeyAttributes],
      });
    }
  }
}

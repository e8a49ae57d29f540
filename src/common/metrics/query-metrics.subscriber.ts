import { EntitySubscriberInterface, EventSubscriber } from 'typeorm';
import type { AfterQueryEvent } from 'typeorm/subscriber/event/QueryEvent';
import { databaseQueryDuration, statementKind } from './metrics.registry';

/** Times every successful query TypeORM runs (its executionTime) into the query latency histogram. */
@EventSubscriber()
export class QueryMetricsSubscriber implements EntitySubscriberInterface {
  afterQuery(event: AfterQueryEvent): void {
    // Failed queries carry no execution time; they show as errors in the logs and as 5xx.
    if (!event.success || event.executionTime === undefined) return;
    databaseQueryDuration.observe({ kind: statementKind(event.query) }, event.executionTime / 1000);
  }
}

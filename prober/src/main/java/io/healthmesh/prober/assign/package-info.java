/**
 * Target assignment: the consumer of the targets topic in group {@code healthmesh-prober-<region>}, which
 * reads its assigned partitions from the beginning, hands definitions to the scheduler and routes bad
 * records to the rejected topic.
 */
package io.healthmesh.prober.assign;

/**
 * Replay: recorded probe results run again through the aggregator's own domain code
 * ({@code io.healthmesh.aggregator.domain}: the state machine, quorum, staleness and fail-open), once with the
 * settings that were in force and once with alternatives, to tell what other thresholds would have done. Pure: no
 * Kafka, Netty or Avro; reading the topics is the caller's business.
 */
package io.healthmesh.replay;

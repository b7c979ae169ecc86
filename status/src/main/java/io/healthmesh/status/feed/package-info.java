/**
 * The Kafka side of the status page: {@link io.healthmesh.status.feed.StatusFeed} reads the state, group, definition
 * and recent result topics without a consumer group into the board; {@link io.healthmesh.status.feed.ResultsLookback}
 * decides which results are too old to decode.
 */
package io.healthmesh.status.feed;

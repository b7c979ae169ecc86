/**
 * Reading compacted topics whole: {@link io.healthmesh.contract.read.CompactedTopicReader}, the one loop that reads
 * topics from the beginning without a consumer group, used by the data-plane roles' state follower and the
 * probers' endpoints feed.
 */
package io.healthmesh.contract.read;

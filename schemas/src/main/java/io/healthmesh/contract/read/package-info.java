/**
 * Reading compacted topics whole: {@link io.healthmesh.contract.read.CompactedTopicReader}, the one loop that reads
 * topics from the beginning without a consumer group, used by the data-plane roles' state follower and the
 * probers' endpoints feed; {@link io.healthmesh.contract.read.ReaderLoop}, the thread loop of every reader that must
 * never give up (this one and the status page's feed), with {@link io.healthmesh.contract.read.ReaderRetry}'s wait
 * between failures.
 */
package io.healthmesh.contract.read;

/**
 * End-to-end tests of the real prober and the real aggregator on the embedded broker: a loopback HTTP backend that
 * stops answering is detected within the BEHAVIOUR.md section 5 window, a group whose members are all down fails open,
 * probers in several regions are combined by the target's quorum policy, and a region whose probers all stop does
 * not turn a target unhealthy. Test code only: the fixtures here ({@link io.healthmesh.pipeline.Pipeline},
 * {@link io.healthmesh.pipeline.LoopbackHttpBackend}) and the testkit's {@link io.healthmesh.testkit.TopicRecorder} start real workers.
 */
package io.healthmesh.pipeline;

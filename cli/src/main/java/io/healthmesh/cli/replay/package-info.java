/**
 * {@code healthmesh replay}: reads a range of the recorded topics (definitions, probe results, the aggregator's state
 * events) and hands them to the replay engine ({@code io.healthmesh.replay}); prints what other settings would have
 * done and whether the run as configured reproduces the aggregator.
 */
package io.healthmesh.cli.replay;

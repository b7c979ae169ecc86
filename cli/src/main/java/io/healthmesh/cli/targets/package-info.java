/**
 * {@code healthmesh targets}: apply, list, get and delete on the compacted targets topic. Target files are read by
 * {@link io.healthmesh.contract.target.TargetFileReader} in {@code schemas}, beside the Avro mapping.
 */
package io.healthmesh.cli.targets;

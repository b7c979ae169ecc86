/**
 * Every way into a {@link io.healthmesh.core.target.TargetSpec}: the Avro contract's {@code TargetDefinition}
 * ({@link io.healthmesh.contract.target.TargetSpecs}, both ways) and target files in YAML or JSON
 * ({@link io.healthmesh.contract.target.TargetFileReader}), which take their field names from the contract's schemas
 * and their defaults from the target's profile, and report every problem with file, target and field.
 */
package io.healthmesh.contract.target;

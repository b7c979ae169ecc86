/**
 * {@code healthmesh groups}: set, list and delete group policies (the panic threshold) on the compacted
 * {@code groups} topic, validated by {@link io.healthmesh.contract.group.GroupPolicies} as the aggregator reads them.
 */
package io.healthmesh.cli.groups;

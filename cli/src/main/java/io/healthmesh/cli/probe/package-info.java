/**
 * {@code healthmesh probe}: one definition's check run once from the command line, with no cluster, through the
 * prober's own engine and egress policy, each step printed with its timing ({@link io.healthmesh.probe.ProbeTrace})
 * and the verdict the prober would publish.
 */
package io.healthmesh.cli.probe;

/**
 * The fuzz harness of BEHAVIOUR.md section 9 ("no poison pill"): {@link io.healthmesh.pipeline.fuzz.FuzzCorpus} generates
 * mutated definitions, mutated results and records under hostile writer schemas, reproducibly from a seed, and
 * judges independently which definitions should be accepted; {@link io.healthmesh.pipeline.fuzz.FuzzStats} counts
 * what a run did. Used by the prober reader's and the aggregator topology's fuzz tests and by {@code PoisonPillIT}.
 */
package io.healthmesh.pipeline.fuzz;

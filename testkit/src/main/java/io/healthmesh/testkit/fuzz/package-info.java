/**
 * The fuzz harness of BEHAVIOUR.md section 9 ("no poison pill"): {@link io.healthmesh.testkit.fuzz.FuzzCorpus}
 * generates mutated definitions, mutated results and records under hostile writer schemas, reproducibly from a seed,
 * and judges independently which definitions should be accepted; {@link io.healthmesh.testkit.fuzz.FuzzStats} counts
 * what a run did. Used by the fuzz tests of the modules they fuzz ({@code prober}'s {@code DefinitionReaderFuzzTest},
 * {@code aggregator}'s {@code AggregatorFuzzTest}) and by {@code pipeline}'s {@code PoisonPillIT}.
 */
package io.healthmesh.testkit.fuzz;

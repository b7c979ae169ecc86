/**
 * The condition language of a definition: CEL expressions over a fixed set of check variables, compiled and
 * type-checked here so that the validator (and so {@code targets apply} and every worker) refuses a bad expression
 * with its position. The probes module evaluates what this package compiles, under the limits it states.
 */
package io.healthmesh.core.condition;

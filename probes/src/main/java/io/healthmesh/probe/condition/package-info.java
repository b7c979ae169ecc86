/**
 * Evaluates a definition's {@code condition} after a check that otherwise succeeded: the expression compiled once
 * and kept (by its text, which the definition's generation includes), its variables made from the check's facts,
 * and every evaluation bounded in steps and comprehension iterations. The language and its limits are core's
 * {@code io.healthmesh.core.condition}.
 */
package io.healthmesh.probe.condition;

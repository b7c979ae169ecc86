/** Probe outcomes, shared by the prober (which produces them) and the aggregator (which judges them). */
package io.healthmesh.core.probe;

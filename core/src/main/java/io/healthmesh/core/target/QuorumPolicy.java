package io.healthmesh.core.target;

/** How per-region verdicts combine into a target's overall status (SPEC section 8). */
public enum QuorumPolicy { ANY, MAJORITY, ALL, AT_LEAST }

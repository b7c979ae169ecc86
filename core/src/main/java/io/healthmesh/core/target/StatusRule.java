package io.healthmesh.core.target;

/** Which expected-status values a profile accepts (docs/PROFILES.md). */
public enum StatusRule {
    /** Classes {@code 1xx..5xx} and exact codes {@code 100..599}. */
    CLASSES_AND_CODES,
    /** Classes {@code 1xx..5xx} only (001: the console offers 1XX to 5XX). */
    CLASSES_ONLY,
    /** Exactly the code 200 (003: any other code fails). */
    ONLY_200
}

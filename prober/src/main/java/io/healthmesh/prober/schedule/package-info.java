/**
 * The probe scheduler: one timer wheel drives every owned target, L4 at a fixed rate, L7 at a fixed delay,
 * first start jittered, probes in flight bounded, each result stamped with its scheduling lag (BEHAVIOUR.md section 5).
 */
package io.healthmesh.prober.schedule;

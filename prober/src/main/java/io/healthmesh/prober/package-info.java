/**
 * The prober worker: its configuration and its wiring of assignment, scheduler, probe engine, publisher and
 * operations endpoint (DESIGN.md "Prober").
 */
package io.healthmesh.prober;

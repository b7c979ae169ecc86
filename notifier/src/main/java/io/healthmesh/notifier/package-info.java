/**
 * The notifier role: reads health-state and group-state in its own consumer group and delivers alerts to the routes
 * of a route file, at least once (see docs/OPERATIONS.md, "Notifier").
 */
package io.healthmesh.notifier;

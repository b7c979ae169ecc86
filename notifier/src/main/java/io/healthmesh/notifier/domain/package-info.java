/**
 * The notifier's pure logic: which state events open and close an alert on which route (filters), when an alert
 * fires (minimum duration), when it is repeated (reminders) and resolved, the idempotency key of each notification
 * and which record offsets may be committed. No Kafka, no HTTP: time is a parameter, so tests drive it by hand.
 */
package io.healthmesh.notifier.domain;

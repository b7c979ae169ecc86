/**
 * Delivery: the message each kind of receiver expects ({@link io.healthmesh.notifier.deliver.Payloads}), one
 * sender thread per route with an ordered queue retried with backoff while the receiver is down
 * ({@link io.healthmesh.notifier.deliver.RouteDelivery}), and the HTTP transport.
 */
package io.healthmesh.notifier.deliver;

/**
 * HAProxy's Runtime API (the stats socket in admin level): the address of a socket, one interactive session over a
 * unix domain or TCP socket, and the parsed {@code show servers state} table.
 */
package io.healthmesh.haproxy.runtime;

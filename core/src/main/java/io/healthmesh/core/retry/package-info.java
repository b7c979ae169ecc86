/** How long to wait before trying again after failures in a row: one backoff rule for every retrying loop. */
package io.healthmesh.core.retry;

/** What the workers need to know about this host's network: its own addresses. */
package io.healthmesh.core.net;

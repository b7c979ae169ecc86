/**
 * HTTP and HTTPS probes: {@code HttpProber} builds each hop's request ({@code HttpRequests}) and follows redirects
 * through the egress gate; each hop's connection is an {@code HttpExchange}, through a Netty channel
 * ({@code ChannelHttpExchange}: TLS and the HTTP codec in its pipeline) or, for plain HTTP on epoll, without one
 * ({@code ChannelFreeHttpExchange}, a small HTTP/1 client of its own). Both hand the response to the one
 * {@code HttpResponseJudge}, which decides the verdict: the status against the expected set, the body text, the
 * redirect.
 */
package io.healthmesh.probe.http;

package io.healthmesh.probe.http;

import io.healthmesh.core.target.ExpectedStatuses;
import io.healthmesh.probe.ProbeContext;
import io.netty.handler.codec.http.FullHttpRequest;

/**
 * One HTTP hop's connection: connects to the hop's address, sends {@code request} and hands the response to an
 * {@link HttpResponseJudge}, which gives the verdict or follows a redirect. Two implementations, chosen once when
 * the {@link HttpProber} is built: {@link ChannelHttpExchange} through a Netty channel (HTTPS always, plain HTTP off
 * epoll) and {@link ChannelFreeHttpExchange} without one (plain HTTP on epoll), so that the prober never asks which
 * transport it runs on.
 */
@FunctionalInterface
interface HttpExchange {

    /** Starts the hop; call on the probe's loop. Ends in a verdict on {@code probe}, or in the next hop. */
    void start(ProbeContext probe, HttpHop hop, FullHttpRequest request, ExpectedStatuses expected,
               int redirectsFollowed);
}

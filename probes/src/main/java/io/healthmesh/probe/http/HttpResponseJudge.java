package io.healthmesh.probe.http;

import io.healthmesh.core.condition.ConditionLanguage;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ExpectedStatuses;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.transport.ByteWindow;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;

import java.nio.charset.StandardCharsets;

/**
 * Judges one HTTP hop's response from what Netty's HTTP response decoder makes of its bytes, whichever way the bytes
 * came: through a channel's pipeline ({@link HttpResponseHandler}) or read by the channel-free check on epoll
 * ({@link ChannelFreeHttpExchange}), so that both give the same verdict for the same bytes. A redirect is handed back to
 * {@link HttpProber} when redirects are on, the status is checked against the expected set, and with
 * {@code bodyContains} the body is searched up to the byte limit. With a {@code condition} the headers and the body's
 * first bytes are kept for it (the condition itself runs as the probe succeeds). A response the decoder could not
 * decode within its bounds (over-long headers) is {@code UNEXPECTED_RESPONSE}. Confined to the probe's loop.
 */
final class HttpResponseJudge {

    /** "status N" for every status a response line can carry, made once: a successful check's detail. */
    private static final String[] STATUS_DETAILS = new String[1000];

    static {
        for (int code = 0; code < STATUS_DETAILS.length; code++) {
            STATUS_DETAILS[code] = "status " + code;
        }
    }

    private final ProbeContext probe;
    private final HttpHop hop;
    private final ExpectedStatuses expected;
    private final ByteWindow body;
    /** The body as the definition's condition reads it; {@code null} without a condition. */
    private final BodyCapture capture;
    private final boolean conditional;
    private boolean bodyFound;
    private final int redirectsFollowed;
    private final HttpProber prober;

    private boolean handedOff;
    private boolean readingBody;
    private int status;

    HttpResponseJudge(ProbeContext probe, HttpHop hop, ExpectedStatuses expected, int maxBodyBytes,
                      int redirectsFollowed, HttpProber prober) {
        this.probe = probe;
        this.hop = hop;
        this.expected = expected;
        String bodyContains = probe.target().http().bodyContains();
        this.body = bodyContains == null ? null
                : new ByteWindow(maxBodyBytes, bodyContains.getBytes(StandardCharsets.UTF_8));
        this.conditional = probe.target().condition() != null;
        // a HEAD response has no body to read: its condition sees the headers and an empty body
        this.capture = conditional && probe.target().http().method() != HttpMethod.HEAD
                ? new BodyCapture(ConditionLanguage.MAX_BODY_BYTES) : null;
        this.redirectsFollowed = redirectsFollowed;
        this.prober = prober;
    }

    /** True once nothing this hop reads can change the verdict: the probe ended, or a redirect's next hop took over. */
    boolean settled() {
        return probe.isDone() || handedOff;
    }

    /**
     * True while this hop's bytes are still wanted: before the verdict, and after it while a traced probe lingers for
     * the rest of the response ({@link ProbeContext#lingering()}).
     */
    boolean readsOn() {
        return !settled() || (!handedOff && probe.lingering());
    }

    boolean handedOff() {
        return handedOff;
    }

    /**
     * One object of the decoder. {@code releaseConnection} closes this hop's connection; it runs when a redirect hands
     * the probe to its next hop.
     */
    void onObject(HttpObject msg, Runnable releaseConnection) {
        if (msg instanceof HttpContent content && !handedOff && probe.tracing()) {
            probe.factBytes("body", content.content()); // a trace's excerpt, read on after a verdict on the headers
            if (content instanceof LastHttpContent) {
                probe.traceHasAll();
            }
        }
        if (settled()) {
            return;
        }
        if (msg.decoderResult().isFailure()) {
            // the type only: a decoder's message may quote the response's bytes, and details never carry them
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "undecodable response: " + rootType(msg.decoderResult().cause()));
            return;
        }
        if (msg instanceof HttpResponse response) {
            onHeaders(response, releaseConnection);
        }
        if (readingBody && msg instanceof HttpContent content) {
            onBody(content);
        }
    }

    /** The connection closed after the decoder's last objects: a verdict if none was reached. */
    void onClosed() {
        probe.traceHasAll(); // a traced probe lingering for the rest of the response: there is no more
        if (!settled()) {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, status == 0 ? "connection closed before a response"
                    : "connection closed before the response was judged");
        }
    }

    private void onHeaders(HttpResponse response, Runnable releaseConnection) {
        status = response.status().code();
        if (status == 100 || status == 103) {
            return; // informational: the final response follows on the same connection
        }
        probe.httpStatus(status);
        String location = response.headers().get(HttpHeaderNames.LOCATION);
        boolean judgeThisOne = probe.target().profile().judgesLastResponseAtRedirectLimit()
                && redirectsFollowed >= prober.maxRedirects();
        if (probe.target().http().followRedirects() && isRedirect(status) && location != null && !judgeThisOne) {
            handedOff = true;
            if (probe.tracing()) {
                probe.step("redirect to " + location);
            }
            releaseConnection.run();
            prober.followRedirect(probe, hop, location, expected, redirectsFollowed);
            return;
        }
        if (!expected.matches(status)) {
            probe.finish(Outcome.UNEXPECTED_STATUS, "status " + status + " (expected: " + expected + ")");
            return;
        }
        if (conditional) {
            probe.facts().httpHeaders(BodyCapture.headers(response.headers()));
        }
        if (body == null && capture == null) {
            probe.succeed(statusDetail(status));
            return;
        }
        readingBody = true;
        probe.phase("reading body");
    }

    private void onBody(HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        if (capture != null) {
            capture.append(content.content());
        }
        if (body != null && !bodyFound) {
            if (body.append(content.content())) {
                bodyFound = true;
            } else if (body.isFull()) {
                probe.finish(Outcome.UNEXPECTED_RESPONSE, "expected text not in the first " + body.size()
                        + " body bytes");
                return;
            } else if (last) {
                probe.finish(Outcome.UNEXPECTED_RESPONSE, "expected text not in the body (" + body.size() + " bytes)");
                return;
            } else {
                return;
            }
        }
        if (capture == null) {
            probe.succeed("status " + status + ", body contains expected text");
        } else if (last || capture.isFull()) {
            // the condition reads the body; it runs as the probe succeeds
            probe.facts().httpBody(capture.text(), last && !capture.isCut());
            probe.succeed(bodyFound ? "status " + status + ", body contains expected text" : statusDetail(status));
        }
    }

    /** The detail of a successful check that reads no body: one string per status, not one per probe. */
    static String statusDetail(int status) {
        return status >= 0 && status < STATUS_DETAILS.length ? STATUS_DETAILS[status] : "status " + status;
    }

    private static String rootType(Throwable failure) {
        Throwable root = failure;
        for (int depth = 0; root.getCause() != null && depth < 8; depth++) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }

    static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }
}

package io.healthmesh.probe;

import java.util.List;
import java.util.Map;

/**
 * What a check learnt beyond its verdict, for whoever reads it after the probe: the one-shot
 * {@code healthmesh probe} prints it, and a condition over the check's result reads it. A check fills the facts of
 * its protocol; every other fact stays unset ({@code null}), which readers show as "not set for this protocol".
 * Confined to the probe's event loop while the probe runs, like {@link ProbeContext}.
 */
public final class CheckFacts {

    private String dnsRcode;
    private List<String> dnsAnswers;
    private Long tlsDaysLeft;
    private String grpcStatus;
    private Map<String, String> httpHeaders;
    private String httpBody;
    private boolean httpBodyComplete;

    /** A DNS check's reply: its response code by name and its answers of the asked type as text. */
    public void dns(String rcode, List<String> answers) {
        this.dnsRcode = rcode;
        this.dnsAnswers = List.copyOf(answers);
    }

    /**
     * Whole days until the earliest expiry in the certificate chain of the check's TLS connection (the leaf's or an
     * intermediate's; negative once expired).
     */
    public void tlsDaysLeft(long days) {
        this.tlsDaysLeft = days;
    }

    /** A gRPC health check's answer: the serving status by name ({@code SERVING}, {@code NOT_SERVING}, ...). */
    public void grpcStatus(String status) {
        this.grpcStatus = status;
    }

    /** An HTTP response's headers by lower-case name, read only when the definition has a condition. */
    public void httpHeaders(Map<String, String> headers) {
        this.httpHeaders = Map.copyOf(headers);
    }

    /**
     * The first bytes of an HTTP response's body as text, read only when the definition has a condition.
     *
     * @param complete true when {@code text} is the whole body, false when it was cut at the bound
     */
    public void httpBody(String text, boolean complete) {
        this.httpBody = text;
        this.httpBodyComplete = complete;
    }

    /** The response headers, or {@code null} when none were read. */
    public Map<String, String> httpHeaders() {
        return httpHeaders;
    }

    /** The body's first bytes as text, or {@code null} when none were read. */
    public String httpBody() {
        return httpBody;
    }

    /** True when {@link #httpBody()} is the whole body. */
    public boolean httpBodyComplete() {
        return httpBodyComplete;
    }

    /** The DNS response code, or {@code null} when the check is not a DNS check or had no reply. */
    public String dnsRcode() {
        return dnsRcode;
    }

    /** The DNS answers, or {@code null} when the check is not a DNS check or had no reply. */
    public List<String> dnsAnswers() {
        return dnsAnswers;
    }

    /** Days left on the certificate chain, or {@code null} without TLS. */
    public Long tlsDaysLeft() {
        return tlsDaysLeft;
    }

    /** The gRPC serving status, or {@code null} for any other protocol. */
    public String grpcStatus() {
        return grpcStatus;
    }
}

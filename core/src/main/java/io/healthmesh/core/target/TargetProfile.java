package io.healthmesh.core.target;

/**
 * The cloud product whose health check a target reproduces (SPEC section 10, docs/PROFILES.md). {@code GENERIC}
 * is the union of the products with healthmesh's own defaults; the others hold a target to one product's
 * documented ranges, defaults, probe rules and schedule. The per-profile table lives in
 * {@link ProfileTable}.
 */
public enum TargetProfile {
    /** The union ranges of SPEC section 5 and healthmesh's defaults. */
    GENERIC,
    /** Tencent Cloud CLB (seed 000). */
    TENCENT_CLB,
    /** Tencent Cloud EdgeOne origin health checks (seed 001). */
    TENCENT_EDGEONE,
    /** Alibaba Cloud NLB (seed 002). */
    ALIBABA_NLB,
    /** Alibaba Cloud Global Accelerator (seed 003). */
    ALIBABA_GA;

    /** The product's name as its document gives it, for messages ({@code GENERIC}: healthmesh's own). */
    public String product() {
        return switch (this) {
            case GENERIC -> "healthmesh";
            case TENCENT_CLB -> "Tencent Cloud CLB";
            case TENCENT_EDGEONE -> "Tencent Cloud EdgeOne";
            case ALIBABA_NLB -> "Alibaba Cloud NLB";
            case ALIBABA_GA -> "Alibaba Cloud Global Accelerator";
        };
    }

    /**
     * True when the document gives its fixed-delay window formula for every probe kind (001, 003): every protocol
     * then waits an interval after the last probe ended. Otherwise only HTTP/HTTPS do, and L4 runs at a fixed rate.
     */
    public boolean everyKindFixedDelay() {
        return this == TENCENT_EDGEONE || this == ALIBABA_GA;
    }

    /**
     * True when a new (or re-defined) target stays DETECTING for {@code interval x healthyThreshold} (000, line 13):
     * its first probe starts one interval after the definition arrives instead of at once.
     */
    public boolean firstProbeAfterOneInterval() {
        return this == TENCENT_CLB;
    }

    /**
     * True when, redirects on and the hop limit reached, the last response is judged by its status like any other
     * (001: "the status of the last jump's response is the result, up to 3 jumps") instead of failing with
     * TOO_MANY_REDIRECTS.
     */
    public boolean judgesLastResponseAtRedirectLimit() {
        return this == TENCENT_EDGEONE;
    }

    /** True when a request without a configured domain carries no Host header at all (002). */
    public boolean omitsHostWithoutDomain() {
        return this == ALIBABA_NLB;
    }
}

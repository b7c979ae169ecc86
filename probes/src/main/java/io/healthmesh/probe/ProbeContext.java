package io.healthmesh.probe;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.netty.buffer.ByteBuf;
import io.healthmesh.probe.condition.ConditionEvaluator;
import io.healthmesh.probe.condition.ConditionInput;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The state of one probe: its deadline, its timings, the channels it opened and its single verdict; what protocol
 * code reports to.
 * Confined to one event loop: every method except {@link #execute} must be called on {@link #loop()}, and
 * protocol code gets there by opening its channels on that loop. The first verdict wins (a verdict after
 * the deadline, or a second verdict, is ignored), cancels the deadline and closes every channel.
 *
 * <p>A failure that the prober itself may have caused ({@link Outcome#mayBeProberTrouble()}: a timeout, an
 * unexplained error) while its event loop stalled for longer than the stall bound (the deadline ran late, or the
 * {@link LoopWatch} saw a stall while the probe ran) becomes {@code INCONCLUSIVE} ({@code loop-stall}).
 */
public final class ProbeContext {

    /** The most bytes of one read that {@link #factBytes} hands a trace. */
    public static final int MAX_TRACED_BYTES = 1024;
    /** How long a traced probe's connections stay open after its verdict, for the rest of a response. */
    public static final long TRACE_LINGER_MS = 1000;

    private final TargetSpec target;
    private final EventLoop loop;
    private final long startNanos;
    private final CompletableFuture<ProbeReport> result = new CompletableFuture<>();
    private final List<Channel> channels = new ArrayList<>(2);
    private final LoopWatch.Stalls stalls;
    private final long stallBoundNanos;
    private final long startTick;
    private long deadlineTick;
    /** Who watches the probe step by step ({@code healthmesh probe}), or {@code null}: the prober never does. */
    private final ProbeTrace trace;
    /** A traced probe's report, held while its connections linger after the verdict ({@link #lingerForTrace}). */
    private ProbeReport lingering;
    /** What else the probe opened that its end must close (a channel-less connect check), or {@code null}. */
    private Runnable closer;

    /** The loop's deadline lanes, or {@code null}: then the deadline is a task scheduled on the loop. */
    private final DeadlineLanes lanes;
    private ScheduledFuture<?> deadline;
    private DeadlineLanes.Entry laneEntry;
    private boolean done;
    private boolean inConnectListener;
    private String phase = "starting";
    private Outcome deadlineOutcome = Outcome.TIMEOUT;
    private String deadlineDetail;
    private long hopStartNanos;
    private Long connectMicros;
    private Long tlsMicros;
    private Long firstByteMicros;
    private Integer httpStatus;
    private long bytesRead;
    private Long certNotAfterMs;
    private Long chainNotAfterMs;
    private final CheckFacts facts = new CheckFacts();

    ProbeContext(TargetSpec target, EventLoop loop, long startNanos) {
        this(target, loop, startNanos, LoopWatch.Stalls.NONE, Long.MAX_VALUE, null);
    }

    /** A probe whose deadline is a task of its own on {@code loop} (no deadline lanes). */
    ProbeContext(TargetSpec target, EventLoop loop, long startNanos, LoopWatch.Stalls stalls, long stallBoundNanos) {
        this(target, loop, startNanos, stalls, stallBoundNanos, null);
    }

    /**
     * @param stalls the stalls the {@link LoopWatch} records for {@code loop}
     * @param stallBoundNanos a stall longer than this while the probe runs makes a timeout or error inconclusive
     * @param lanes {@code loop}'s deadline lanes, or {@code null} to schedule the deadline as a task of its own
     */
    ProbeContext(TargetSpec target, EventLoop loop, long startNanos, LoopWatch.Stalls stalls, long stallBoundNanos,
                 DeadlineLanes lanes) {
        this(target, loop, startNanos, stalls, stallBoundNanos, lanes, null);
    }

    /** As above, watched step by step by {@code trace} (or by no one when it is {@code null}). */
    ProbeContext(TargetSpec target, EventLoop loop, long startNanos, LoopWatch.Stalls stalls, long stallBoundNanos,
                 DeadlineLanes lanes, ProbeTrace trace) {
        this.trace = trace;
        this.target = target;
        this.lanes = lanes;
        this.loop = loop;
        this.startNanos = startNanos;
        this.hopStartNanos = startNanos;
        this.stalls = stalls;
        this.stallBoundNanos = stallBoundNanos;
        this.startTick = loop.ticker().nanoTime();
    }

    /** What is probed. */
    public TargetSpec target() {
        return target;
    }

    /** The loop the probe is confined to. */
    public EventLoop loop() {
        return loop;
    }

    CompletableFuture<ProbeReport> result() {
        return result;
    }

    /** Runs {@code action} once the probe has ended, however it ended (at once if it has). */
    public void whenEnded(Runnable action) {
        result.whenComplete((report, failure) -> action.run());
    }

    /** True once the probe has its verdict. */
    public boolean isDone() {
        return done;
    }

    /** Runs {@code task} on the probe's event loop unless the probe has already ended; safe from any thread. */
    public void execute(Runnable task) {
        if (loop.inEventLoop()) {
            if (!done) {
                task.run();
            }
            return;
        }
        loop.execute(() -> {
            if (!done) {
                task.run();
            }
        });
    }

    /** Schedules the deadline; whichever of the deadline and a verdict comes first decides. */
    void armDeadline() {
        deadlineTick = loop.ticker().nanoTime() + TimeUnit.MILLISECONDS.toNanos(target.timeoutMs());
        if (lanes != null) {
            laneEntry = lanes.arm(this, target.timeoutMs(), deadlineTick);
        } else {
            deadline = loop.schedule(this::expire, target.timeoutMs(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Changes what the deadline means. UDP port mode uses it: silence until the deadline is a success there.
     */
    public void deadlineMeans(Outcome outcome, String detail) {
        this.deadlineOutcome = outcome;
        this.deadlineDetail = detail;
    }

    /** What the probe is doing now; a timeout's detail names it, and a trace shows it as a step. */
    public void phase(String value) {
        this.phase = value;
        step(value);
    }

    /** True when someone watches this probe step by step: compute a {@link #fact} only then. */
    public boolean tracing() {
        return trace != null;
    }

    /** A step for the trace, if there is one ({@link ProbeTrace#step}); nothing otherwise. */
    public void step(String what) {
        if (trace != null) {
            trace.step(micros(startNanos), what);
        }
    }

    /**
     * The first {@value #MAX_TRACED_BYTES} readable bytes of {@code data}, as text, for the trace if there is one;
     * nothing otherwise (the buffer is not touched).
     */
    public void factBytes(String name, ByteBuf data) {
        if (trace != null) {
            trace.fact(name, data.toString(data.readerIndex(), Math.min(data.readableBytes(), MAX_TRACED_BYTES),
                    StandardCharsets.UTF_8));
        }
    }

    /** A fact for the trace, if there is one ({@link ProbeTrace#fact}); nothing otherwise. */
    public void fact(String name, String value) {
        if (trace != null) {
            trace.fact(name, value);
        }
    }

    /** Closed when the probe ends, however it ends. */
    public void track(Channel channel) {
        if (done) {
            channel.close();
        } else {
            channels.add(channel);
        }
    }

    /**
     * Runs {@code close} when the probe ends, however it ends, or at once if it has ended: for what a probe opens
     * without a channel (a {@code ChannelFreeConnection}). One at a time: an HTTP redirect's next
     * hop registers its own once the previous one was {@link #release(Runnable) released}.
     */
    public void closeAtEnd(Runnable close) {
        if (closer != null) {
            throw new IllegalStateException("closeAtEnd: one at a time");
        }
        if (done) {
            close.run();
        } else {
            closer = close;
        }
    }

    /** Closes a channel that the probe no longer needs (a redirect's previous hop). */
    public void release(Channel channel) {
        channels.remove(channel);
        channel.close();
    }

    /** Runs and forgets a {@link #closeAtEnd} closer that the probe no longer needs (a redirect's previous hop). */
    public void release(Runnable close) {
        if (closer == close) {
            closer = null;
        }
        close.run();
    }

    /** Starts a new connection (an HTTP redirect hop): the phases describe the last hop. */
    public void beginHop() {
        hopStartNanos = System.nanoTime();
        connectMicros = null;
        tlsMicros = null;
        firstByteMicros = null;
        httpStatus = null;
        certNotAfterMs = null;
        chainNotAfterMs = null;
    }

    /** The hop's connection is established: its connect time is recorded. */
    public void connected() {
        connectMicros = micros(hopStartNanos);
        step("connected");
    }

    /** The hop's TLS handshake is done: its time is recorded. */
    public void tlsDone() {
        if (connectMicros != null) {
            tlsMicros = micros(hopStartNanos) - connectMicros;
        }
        step("TLS handshake done");
    }

    /** {@code count} bytes of the response arrived (the first ones record the time to first byte). */
    public void bytesRead(int count) {
        if (firstByteMicros == null && count > 0) {
            firstByteMicros = micros(hopStartNanos);
            step("first response byte");
        }
        bytesRead += count;
    }

    /** What the check learnt beyond its verdict (a DNS reply, a certificate's days left, a gRPC status). */
    public CheckFacts facts() {
        return facts;
    }

    /** The response bytes read so far, every hop together. */
    public long bytesReadSoFar() {
        return bytesRead;
    }

    /** The hop's HTTP status, for the report. */
    public void httpStatus(int status) {
        httpStatus = status;
        if (trace != null) {
            step("status " + status);
        }
    }

    /**
     * The server's certificates: the leaf's expiry and the earliest in its chain, epoch milliseconds (the last TLS
     * handshake's: a redirect's next hop starts without them).
     */
    public void certificates(long leafNotAfterMs, long earliestNotAfterMs) {
        certNotAfterMs = leafNotAfterMs;
        chainNotAfterMs = earliestNotAfterMs;
    }

    /** The verdict: success. */
    public void succeed(String detail) {
        finish(Outcome.SUCCESS, detail);
    }

    /** The verdict: what {@code cause} says about the target ({@link FailureClassifier}). */
    public void fail(Throwable cause) {
        Outcome outcome = FailureClassifier.outcome(cause);
        String detail = FailureClassifier.detail(cause);
        finish(outcome, outcome == Outcome.INCONCLUSIVE ? FailureClassifier.inconclusiveCause(cause).detail(detail)
                : detail);
    }

    /** Our own code failed (not the network, not the target): {@code INCONCLUSIVE} ({@code internal-error}). */
    public void internalError(Throwable cause) {
        finish(Outcome.INCONCLUSIVE, InconclusiveCause.INTERNAL_ERROR.detail(FailureClassifier.detail(cause)));
    }

    /**
     * The verdict; only the first call counts. The report is completed however the closing of the probe's channels
     * and sockets ends: a closer that throws must not leave the probe without a report (its target would never be
     * probed again).
     */
    public void finish(Outcome outcome, String detail) {
        if (done) {
            return;
        }
        done = true;
        if (outcome == Outcome.SUCCESS && target.condition() != null) {
            String failed = ConditionEvaluator.SHARED.failure(target.condition(), conditionInput());
            step(failed == null ? "condition true" : failed);
            if (failed != null) {
                outcome = Outcome.UNEXPECTED_RESPONSE;
                detail = failed;
            }
        }
        if (outcome.mayBeProberTrouble()) {
            long stalled = stalledNanos();
            if (stalled > stallBoundNanos) {
                detail = InconclusiveCause.LOOP_STALL.detail("event loop stalled "
                        + TimeUnit.NANOSECONDS.toMillis(stalled) + " ms while the probe ran (bound "
                        + TimeUnit.NANOSECONDS.toMillis(stallBoundNanos) + " ms); " + outcome + ": " + detail);
                outcome = Outcome.INCONCLUSIVE;
            }
        }
        if (trace != null) {
            lingerForTrace(new ProbeReport(outcome, micros(startNanos), connectMicros, tlsMicros, firstByteMicros,
                    httpStatus, detail, bytesRead));
            return;
        }
        try {
            release();
        } finally {
            result.complete(new ProbeReport(outcome, micros(startNanos), connectMicros, tlsMicros, firstByteMicros,
                    httpStatus, detail, bytesRead, certNotAfterMs, chainNotAfterMs));
        }
    }

    /**
     * A traced probe's verdict and report are the prober's, fixed now; but its connections stay open for up to
     * {@value #TRACE_LINGER_MS} ms (or until {@link #traceHasAll()}) so that the rest of a response still reaches the
     * trace as facts, and the report is handed over only then (on the loop's next turn when nothing is open).
     */
    private void lingerForTrace(ProbeReport report) {
        step("verdict " + report.outcome());
        lingering = report;
        boolean open = channels.stream().anyMatch(Channel::isActive) || closer != null;
        try {
            if (open) {
                loop.schedule(this::traceHasAll, TRACE_LINGER_MS, TimeUnit.MILLISECONDS);
            } else {
                loop.execute(this::traceHasAll);
            }
        } catch (RejectedExecutionException stopping) {
            traceHasAll();
        }
    }

    /** True while a traced probe, its verdict reached, keeps its connections open for the rest of a response. */
    public boolean lingering() {
        return lingering != null;
    }

    /**
     * A traced probe after its verdict: nothing more is worth reading (the response ended), so its connections close
     * and its report is handed over now. Nothing for a probe without a trace, or before the verdict.
     */
    public void traceHasAll() {
        ProbeReport report = lingering;
        if (report == null) {
            return;
        }
        lingering = null;
        try {
            release();
        } finally {
            result.complete(report);
        }
    }

    /**
     * Ends the probe as {@code INCONCLUSIVE} ({@code internal-error}) from any thread, the engine closing: the report
     * at once, on the calling thread, because a loop that is shutting down may never run a task again; the probe's
     * channels and sockets on its loop, by a task, because they are confined to it (a loop that refuses the task is
     * shutting down and closes what is registered with it).
     */
    void abort(String reason) {
        String detail = InconclusiveCause.INTERNAL_ERROR.detail(reason);
        result.complete(ProbeReport.of(Outcome.INCONCLUSIVE, 0, detail));
        try {
            loop.execute(() -> finish(Outcome.INCONCLUSIVE, detail));
        } catch (RejectedExecutionException shutDown) {
            // the loop closes its channels and registrations itself as it terminates
        }
    }

    /** Cancels the deadline and closes every channel and the closer, each even when one before it threw. */
    private void release() {
        try {
            if (laneEntry != null) {
                laneEntry.cancel();
            }
            if (deadline != null) {
                deadline.cancel(false);
            }
        } finally {
            try {
                for (Channel channel : channels) {
                    if (inConnectListener) {
                        closeOnNextTurn(channel);
                    } else {
                        channel.close();
                    }
                }
                channels.clear();
            } finally {
                Runnable close = closer;
                closer = null;
                if (close != null) {
                    close.run();
                }
            }
        }
    }

    /**
     * {@code listener} as a connect future's listener. A verdict reached inside it (a connect-only check's success, a
     * refused connection) closes the probe's channels by a task on the loop, which runs once the loop is done with
     * the connect event, rather than at once: a Netty channel closed while its connect promise is still being
     * completed makes a {@code ClosedChannelException}, with a full stack trace, to fail that promise with (one per
     * probe, 6 % of the engine's CPU; docs/BENCHMARKS.md, "Where a TCP probe's CPU goes"). Any other verdict closes
     * them at once, so that an HTTP probe's channel does not read once more before it is closed.
     */
    public ChannelFutureListener onConnect(ChannelFutureListener listener) {
        return future -> {
            inConnectListener = true;
            try {
                listener.operationComplete(future);
            } finally {
                inConnectListener = false;
            }
        };
    }

    private void closeOnNextTurn(Channel channel) {
        try {
            loop.execute(channel::close);
        } catch (RejectedExecutionException stopping) {
            channel.close();
        }
    }

    /** What the definition's condition reads: this check's facts so far. */
    private ConditionInput conditionInput() {
        return new ConditionInput(httpStatus == null ? 0 : httpStatus, micros(startNanos) / 1_000,
                facts.httpHeaders(), facts.httpBody(), facts.httpBodyComplete(), facts.dnsRcode(), facts.dnsAnswers(),
                facts.tlsDaysLeft(), facts.grpcStatus());
    }

    /** The deadline passed: the verdict it means, unless one came first. */
    void expire() {
        String detail = deadlineDetail != null ? deadlineDetail
                : "no verdict within " + target.timeoutMs() + " ms (" + phase + ")";
        finish(deadlineOutcome, detail);
    }

    /** The longest stall of this probe's loop while it ran: seen by the {@link LoopWatch}, or a late deadline. */
    private long stalledNanos() {
        long now = loop.ticker().nanoTime();
        long deadlineLate = deadlineTick == 0 ? 0 : Math.max(0, now - deadlineTick);
        return Math.max(deadlineLate, stalls.overlapNanos(startTick));
    }

    private static long micros(long fromNanos) {
        return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - fromNanos);
    }
}

package io.healthmesh.aggregator;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class TransactionBackoffCheckTest {

    @Test
    void oneBrokerNeverGetsAdvice() {
        // on one broker the coordinator and the leader are the same node: the add went through at once (measured)
        assertThat(TransactionBackoffCheck.advice(1, Map.of(1, "20"))).isEmpty();
        assertThat(TransactionBackoffCheck.advice(0, Map.of())).isEmpty();
    }

    @Test
    void severalBrokersAtTheDefaultAreNamedWithTheirValues() {
        Map<Integer, String> values = new TreeMap<>(Map.of(1, "20", 2, "20", 3, "5"));

        assertThat(TransactionBackoffCheck.advice(3, values)).hasValueSatisfying(advice -> assertThat(advice)
                .startsWith("2 of the cluster's 3 brokers retry a transaction's partition adds more than 5 ms apart")
                .contains("add.partitions.to.txn.retry.backoff.ms: 1 (20 ms), 2 (20 ms))")
                .doesNotContain("3 (5 ms)")
                .contains("set add.partitions.to.txn.retry.backoff.ms=5 on the brokers")
                .contains("docs/OPERATIONS.md"));
    }

    @Test
    void theAdvisedValueAndLowerSayNothing() {
        assertThat(TransactionBackoffCheck.advice(3, Map.of(1, "5", 2, "1", 3, "0"))).isEmpty();
    }

    @Test
    void aValueThatIsNotANumberOrMissingIsNotJudged() {
        assertThat(TransactionBackoffCheck.advice(3, Map.of(1, "soon", 2, " 5 "))).isEmpty();
        assertThat(TransactionBackoffCheck.advice(3, Map.of())).isEmpty();
        assertThat(TransactionBackoffCheck.advice(2, Map.of(7, " 100 "))).hasValueSatisfying(advice ->
                assertThat(advice).startsWith("1 of the cluster's 2 brokers").contains("7 (100 ms)"));
        assertThat(TransactionBackoffCheck.parseMillis(null)).isNull();
        assertThat(TransactionBackoffCheck.parseMillis("6")).isEqualTo(6L);
    }
}

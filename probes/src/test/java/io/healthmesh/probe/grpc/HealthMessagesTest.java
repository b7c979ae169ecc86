package io.healthmesh.probe.grpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HealthMessagesTest {

    private static String requestHex(String service) {
        ByteBuf request = HealthMessages.request(ByteBufAllocator.DEFAULT, service);
        try {
            return ByteBufUtil.hexDump(request);
        } finally {
            request.release();
        }
    }

    private static ByteBuf frame(String hex) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex));
    }

    @Test
    void theWholeServerIsAnEmptyMessage() {
        assertThat(requestHex("")).isEqualTo("0000000000");
    }

    @Test
    void aServiceNameIsField1LengthDelimited() {
        // protoc's encoding of HealthCheckRequest{service: "svc"}: 0a 03 's' 'v' 'c', framed with its length 5
        assertThat(requestHex("svc")).isEqualTo("0000000005" + "0a03737663");
    }

    @Test
    void aLongNameHasATwoByteLength() {
        String name = "a".repeat(200);
        String hex = requestHex(name);
        assertThat(hex).startsWith("00000000cb" + "0ac801"); // 203 bytes: tag, varint 200 (c8 01), the name
        assertThat(hex).hasSize(2 * (5 + 203));
    }

    @Test
    void servingStatusesAreRead() {
        assertThat(HealthMessages.status(frame("0000000002" + "0801"))).isEqualTo(HealthMessages.SERVING);
        assertThat(HealthMessages.status(frame("0000000002" + "0802"))).isEqualTo(HealthMessages.NOT_SERVING);
        assertThat(HealthMessages.status(frame("0000000002" + "0803"))).isEqualTo(HealthMessages.SERVICE_UNKNOWN);
        // proto3 leaves a zero value out: an empty message is UNKNOWN
        assertThat(HealthMessages.status(frame("0000000000"))).isEqualTo(HealthMessages.UNKNOWN);
    }

    @Test
    void unknownFieldsAreSkipped() {
        // field 2 (varint 150), field 3 (bytes "hi"), field 4 (fixed32), field 5 (fixed64), then status SERVING
        String message = "109601" + "1a026869" + "2501020304" + "290102030405060708" + "0801";
        assertThat(HealthMessages.status(frame(String.format("00%08x", message.length() / 2) + message)))
                .isEqualTo(HealthMessages.SERVING);
    }

    @Test
    void malformedMessagesAreRefusedWithFixedTexts() {
        assertThatThrownBy(() -> HealthMessages.status(frame("000000"))).hasMessage("no complete response message");
        assertThatThrownBy(() -> HealthMessages.status(frame("0000000003" + "0801")))
                .hasMessage("no complete response message");
        assertThatThrownBy(() -> HealthMessages.status(frame("0000000001" + "0801")))
                .hasMessage("more than one response message");
        assertThatThrownBy(() -> HealthMessages.status(frame("0100000002" + "0801")))
                .hasMessage("a compressed response message (none was offered)");
        assertThatThrownBy(() -> HealthMessages.status(frame("0000000002" + "08ff")))
                .hasMessage("a malformed response message (a number runs past its end)");
        assertThatThrownBy(() -> HealthMessages.status(frame("0000000003" + "1a0568")))
                .hasMessage("a malformed response message (a field runs past its end)");
        assertThatThrownBy(() -> HealthMessages.status(frame("0000000002" + "0f01")))
                .hasMessage("a malformed response message (wire type 7)");
    }

    @Test
    void servingStatusNames() {
        assertThat(HealthMessages.servingStatusName(2)).isEqualTo("NOT_SERVING");
        assertThat(HealthMessages.servingStatusName(9)).isEqualTo("serving status 9 (not a value of grpc.health.v1)");
    }
}

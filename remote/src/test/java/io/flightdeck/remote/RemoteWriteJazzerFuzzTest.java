package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.flightdeck.remote.RemoteWriteReceiver.Response;

/**
 * Coverage-guided fuzzing of the remote-write 1.0 receiver (Jazzer). Without {@code JAZZER_FUZZ}
 * this replays the committed inputs in {@code RemoteWriteJazzerFuzzTestInputs/<method>}; {@code
 * ./run-tests --fuzz remote-write-protobuf remote-write-snappy} explores from them
 * (docs/testing.md).
 *
 * <p>Whatever the body, the receiver answers (204, 400 or 413) and throws nothing; it reports as
 * written exactly the samples storage received, and finishes its appender.
 */
class RemoteWriteJazzerFuzzTest {
  /** The server's default --web.remote-write-receiver.max-body-size. */
  private static final int MAX_BODY_BYTES = 32 << 20;

  /** Bytes given to the protobuf decoder: compressed here so that they get past snappy. */
  @FuzzTest(maxDuration = "30s")
  void protobufBody(byte[] writeRequest) {
    assertAnswered(WriteRequestEncoder.snappy(writeRequest));
  }

  /** Bytes as the HTTP body: the snappy block framing first, then whatever it unpacks to. */
  @FuzzTest(maxDuration = "30s")
  void snappyBody(byte[] body) {
    assertAnswered(body);
  }

  private static void assertAnswered(byte[] body) {
    InMemoryAppendable storage = new InMemoryAppendable();
    RemoteWriteReceiver receiver = new RemoteWriteReceiver(storage, MAX_BODY_BYTES);

    Response response = receiver.handle("application/x-protobuf", "snappy", body);

    assertThat(response.status()).isIn(204, 400, 413);
    assertThat(response.body()).isNotNull();
    assertThat(response.samplesWritten()).isEqualTo(storage.samples().size());
    assertThat(storage.unfinishedAppenders()).isZero();
  }
}

package io.dpone.publication;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * An opaque cluster member id: a digest of the cluster name and the member's advertised address. It is the only
 * way a member appears in any output; hosts and ports never do.
 */
public record MemberId(String value) implements Comparable<MemberId> {
    public MemberId {
        if (value == null || !value.matches("m-[0-9a-f]{16}")) {
            throw new IllegalArgumentException("member id must be m- and 16 hex digits");
        }
    }

    /** The id of the member advertised as {@code host:port} in {@code cluster}. */
    public static MemberId of(String cluster, String host, int port) {
        return new MemberId("m-" + Digests.sha256Hex(cluster + "\n" + host + "\n" + port).substring(0, 16));
    }

    @Override
    public int compareTo(MemberId o) {
        return value.compareTo(o.value);
    }

    @Override
    public String toString() {
        return value;
    }

    /** SHA-256 helpers shared by the publication identities. */
    public static final class Digests {
        private Digests() {
        }

        public static String sha256Hex(String text) {
            return sha256Hex(text.getBytes(StandardCharsets.UTF_8));
        }

        public static String sha256Hex(byte[] bytes) {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 unavailable", e);
            }
        }
    }
}

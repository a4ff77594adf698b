package io.dpone.testing.mssql.tds;

/** The one SQL login the twin accepts (user and password), or any login when no user is configured. */
public record LoginPolicy(String user, char[] password) {
    public static LoginPolicy anyLogin() {
        return new LoginPolicy(null, null);
    }

    boolean accepts(String u, char[] p) {
        if (user == null) {
            return true;
        }
        return user.equals(u) && java.security.MessageDigest.isEqual(
            new String(password).getBytes(java.nio.charset.StandardCharsets.UTF_8),
            new String(p).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}

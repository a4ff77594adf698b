package io.dpone.connect;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/** Reads a credential from its configured source (environment variable or file) into a {@link Secret}. */
public final class CredentialResolver {
    private static UnaryOperator<String> environment = System::getenv;

    private CredentialResolver() {
    }

    /** Test seam: replaces the environment lookup. */
    static void useEnvironment(UnaryOperator<String> lookup) {
        environment = lookup;
    }

    static ConnectionSpec resolve(ContextEntry e, String subject) {
        Secret password = null;
        if (e.passwordEnv() != null) {
            String value = environment.apply(e.passwordEnv());
            if (value == null) {
                throw new DponeException(BlockerCode.CONNECTION_CREDENTIAL_MISSING, subject,
                    "credential environment variable '" + e.passwordEnv() + "' for alias '" + e.alias()
                        + "' is not set");
            }
            password = Secret.of(value);
        } else if (e.passwordFile() != null) {
            try {
                password = Secret.of(Files.readString(Path.of(e.passwordFile()), StandardCharsets.UTF_8).strip());
            } catch (IOException | RuntimeException ex) {
                throw new DponeException(BlockerCode.CONNECTION_CREDENTIAL_MISSING, subject,
                    "credential file for alias '" + e.alias() + "' cannot be read");
            }
        }
        return new ConnectionSpec(e.alias(), e.type(), e.url(), e.user(), password, e.embedded(), e.options());
    }
}

package io.dpone.lineage;

import io.dpone.connect.Redactor;
import io.dpone.quality.GateFigures;
import io.dpone.quality.GateResult;
import io.openlineage.client.OpenLineage;
import io.openlineage.client.OpenLineageClient;
import io.openlineage.client.transports.ApiKeyTokenProvider;
import io.openlineage.client.transports.FileConfig;
import io.openlineage.client.transports.FileTransport;
import io.openlineage.client.transports.HttpConfig;
import io.openlineage.client.transports.HttpTransport;
import io.openlineage.client.transports.Transport;
import java.net.URI;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Emits OpenLineage run events (openlineage-java) for full refreshes and CDC ticks: START when a run begins, COMPLETE
 * or FAIL when it ends, with the source as input dataset and the target as output dataset. On the end event both
 * carry a schema facet (the source's types on the input, ClickHouse's on the output), the output a column lineage
 * facet (each column from the source column of the same name, an IDENTITY transformation), and the input the
 * gates as a data-quality assertions facet (every gate, passed or not, its figures as parameters). A FAIL carries the
 * first blocker as its error message. Every text passes the redaction layer; dataset namespaces name the connection
 * alias ({@code dpone:<alias>}), never an endpoint. A transport failure is logged and never reaches the run.
 */
public final class LineageEmitter implements AutoCloseable {
    /** The dataset namespace prefix: {@code dpone:<alias>}. */
    public static final String DATASET_NAMESPACE = "dpone:";
    private static final Logger LOG = LoggerFactory.getLogger(LineageEmitter.class);
    private static final URI PRODUCER = URI.create("urn:dpone:serve");

    private final OpenLineageClient client;
    private final OpenLineage ol = new OpenLineage(PRODUCER);
    private final String namespace;

    private LineageEmitter(OpenLineageClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** An emitter for {@code config}: HTTP when it names a URL, else its file. */
    public static LineageEmitter of(LineageConfig config) {
        Transport transport;
        if (config.url() != null) {
            Redactor.global().registerEndpoint(config.url().toString());
            HttpConfig http = new HttpConfig();
            http.setUrl(config.url());
            http.setEndpoint(config.endpoint());
            http.setTimeoutInMillis((int) Math.min(Integer.MAX_VALUE, config.timeout().toMillis()));
            String key = config.apiKeyEnv() == null ? null : System.getenv(config.apiKeyEnv());
            if (key != null && !key.isEmpty()) {
                Redactor.global().registerSecret(key);
                ApiKeyTokenProvider auth = new ApiKeyTokenProvider();
                auth.setApiKey(key);
                http.setAuth(auth);
            }
            transport = new HttpTransport(http);
        } else {
            transport = new FileTransport(new FileConfig(config.file().toAbsolutePath().toString()));
        }
        return new LineageEmitter(new OpenLineageClient(transport), config.namespace());
    }

    /** START: the run begins; datasets without facets (the columns are known once the source is described). */
    public void start(LineageRun run) {
        emit(run, OpenLineage.RunEvent.EventType.START, null);
    }

    /** COMPLETE (passed) or FAIL, with the facets of {@code outcome}. */
    public void end(LineageRun run, boolean passed, LineageRun.Outcome outcome) {
        emit(run, passed ? OpenLineage.RunEvent.EventType.COMPLETE : OpenLineage.RunEvent.EventType.FAIL, outcome);
    }

    /** ABORT: a stop interrupted the run; it resumes with the same run id (and OpenLineage run id) at the next start. */
    public void abort(LineageRun run, LineageRun.Outcome outcome) {
        emit(run, OpenLineage.RunEvent.EventType.ABORT, outcome);
    }

    private void emit(LineageRun run, OpenLineage.RunEvent.EventType type, LineageRun.Outcome outcome) {
        try {
            client.emit(event(run, type, outcome));
        } catch (RuntimeException e) { // the collector is down or refuses: the run is not the collector's
            LOG.warn("lineage: the {} event of {} {} was not delivered: {}", type, run.kind(), run.job(),
                Redactor.global().describe(e));
        }
    }

    OpenLineage.RunEvent event(LineageRun run, OpenLineage.RunEvent.EventType type, LineageRun.Outcome outcome) {
        OpenLineage.RunFacetsBuilder runFacets = ol.newRunFacetsBuilder();
        if (outcome != null) {
            OpenLineage.RunFacet dpone = ol.newRunFacet();
            dpone.getAdditionalProperties().put("run_id", r(outcome.dponeRunId()));
            dpone.getAdditionalProperties().put("kind", run.kind());
            dpone.getAdditionalProperties().put("rows", outcome.rows());
            dpone.getAdditionalProperties().put("blockers", outcome.blockerCodes());
            runFacets.put("dpone", dpone);
            if (type == OpenLineage.RunEvent.EventType.FAIL) {
                runFacets.errorMessage(ol.newErrorMessageRunFacetBuilder().programmingLanguage("java")
                    .message(r(outcome.firstBlocker() == null ? String.join(", ", outcome.blockerCodes())
                        : outcome.blockerCodes().get(0) + ": " + outcome.firstBlocker())).build());
            }
        }
        String sourceNs = DATASET_NAMESPACE + r(run.source().alias());
        String sourceName = r(run.source().name());
        OpenLineage.InputDatasetBuilder input = ol.newInputDatasetBuilder().namespace(sourceNs).name(sourceName);
        OpenLineage.OutputDatasetBuilder output = ol.newOutputDatasetBuilder()
            .namespace(DATASET_NAMESPACE + r(run.target().alias())).name(r(run.target().name()));
        if (outcome != null) {
            List<OpenLineage.SchemaDatasetFacetFields> sourceFields = new ArrayList<>();
            List<OpenLineage.SchemaDatasetFacetFields> targetFields = new ArrayList<>();
            OpenLineage.ColumnLineageDatasetFacetFieldsBuilder lineage = ol.newColumnLineageDatasetFacetFieldsBuilder();
            long ordinal = 1;
            for (LineageRun.Column c : outcome.columns()) {
                sourceFields.add(ol.newSchemaDatasetFacetFieldsBuilder().name(r(c.name())).type(r(c.sourceType()))
                    .ordinal_position(ordinal).build());
                targetFields.add(ol.newSchemaDatasetFacetFieldsBuilder().name(r(c.name())).type(r(c.targetType()))
                    .ordinal_position(ordinal).build());
                ordinal++;
                lineage.put(r(c.name()), ol.newColumnLineageDatasetFacetFieldsAdditionalBuilder()
                    .inputFields(List.of(ol.newInputFieldBuilder().namespace(sourceNs).name(sourceName)
                        .field(r(c.name())).transformations(List.of(ol.newInputFieldTransformationsBuilder()
                            .type("DIRECT").subtype("IDENTITY").description(r("the same value: " + c.sourceType()
                                + " written as " + c.targetType())).masking(false).build())).build())).build());
            }
            input.facets(ol.newDatasetFacetsBuilder().schema(ol.newSchemaDatasetFacet(sourceFields)).build())
                .inputFacets(ol.newInputDatasetInputFacetsBuilder()
                    .dataQualityAssertions(ol.newDataQualityAssertionsDatasetFacet(assertions(outcome.gates())))
                    .build());
            output.facets(ol.newDatasetFacetsBuilder().schema(ol.newSchemaDatasetFacet(targetFields))
                .columnLineage(ol.newColumnLineageDatasetFacetBuilder().fields(lineage.build()).build()).build());
        }
        return ol.newRunEventBuilder()
            .eventTime(ZonedDateTime.now(ZoneOffset.UTC))
            .eventType(type)
            .run(ol.newRun(run.id(), runFacets.build()))
            .job(ol.newJobBuilder().namespace(r(namespace)).name(r(run.job())).build())
            .inputs(List.of(input.build()))
            .outputs(List.of(output.build()))
            .build();
    }

    /** Every gate as an assertion: passed or not, its figures as parameters (a skipped gate is not a success). */
    private List<OpenLineage.DataQualityAssertionsDatasetFacetAssertions> assertions(List<GateResult> gates) {
        List<OpenLineage.DataQualityAssertionsDatasetFacetAssertions> out = new ArrayList<>();
        for (GateResult g : gates) {
            OpenLineage.DataQualityAssertionsDatasetFacetAssertionsParamsBuilder params =
                ol.newDataQualityAssertionsDatasetFacetAssertionsParamsBuilder();
            for (Map.Entry<String, String> f : GateFigures.of(g.details()).entrySet()) {
                params.put(f.getKey(), r(f.getValue()));
            }
            params.put("status", g.status());
            out.add(ol.newDataQualityAssertionsDatasetFacetAssertionsBuilder().assertion(g.gate()).name(g.gate())
                .success("passed".equals(g.status())).severity("error").params(params.build()).build());
        }
        return out;
    }

    private static String r(String text) {
        return text == null ? null : Redactor.global().redact(text);
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (Exception e) {
            LOG.debug("lineage: closing the transport failed: {}", e.getClass().getSimpleName());
        }
    }
}

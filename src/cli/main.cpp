#include "branchlisting.h"
#include "clisession.h"
#include "enginecommands.h"
#include "localmodel.h"
#include "mcplisting.h"
#include "modellisting.h"
#include "probecommand.h"
#include "pullcommand.h"

#include "agent/agentthread.h"
#include "llm/apikeystore.h"
#include "llm/modelimage.h"
#include "llm/providerpresets.h"
#include "mcp/mcpserverregistry.h"
#include "mcp/mcptrust.h"
#include "sandbox/dockercli.h"
#include "sandbox/imagemanager.h"
#include "sandbox/sandboxfolder.h"
#include "session/agentsettings.h"
#include "session/conversationsession.h"
#include "session/localmodelhost.h"
#include "settings/settings.h"
#include "storage/conversationstore.h"
#include "storage/notebookexport.h"

#include <sandpiper/buildinfo.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QCoroTask>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <csignal>
#include <cstdio>

using namespace Sandpiper;

namespace {

volatile std::sig_atomic_t interruptRequests = 0;

int fail(const QString &message, int code = 2)
{
    std::fprintf(stderr, "sandpiper-cli: %s\n", qPrintable(message));
    return code;
}

// Why Python cannot run here, or empty when it can.
QString sandboxProblem(const QString &image)
{
    if (!QCoro::waitFor(DockerCli::engineAnswers()))
        return QStringLiteral("Docker is not reachable");
    if (!QCoro::waitFor(ImageManager::isPresent(image)))
        return QStringLiteral("the sandbox image %1 is missing (build it with scripts/run or scripts/test)").arg(image);
    return {};
}

// Writes conversation ID of STORE as a Jupyter notebook to FILEPATH; the exit code.
int exportNotebook(const Settings &settings, ConversationStore &store, const QString &id, const QString &filePath)
{
    bool numeric = false;
    const qint64 conversationId = id.toLongLong(&numeric);
    if (!numeric || !store.conversation(conversationId))
        return fail(QStringLiteral("there is no conversation %1").arg(id));
    const auto snapshot = store.loadConversation(conversationId);
    if (!snapshot)
        return fail(snapshot.error().message, 1);
    NotebookExport::Environment environment;
    environment.image = settings.string(QStringLiteral("sandbox/image"));
    environment.pythonVersion = QCoro::waitFor(ImageManager::pythonVersion(environment.image));
    const auto written =
        NotebookExport::write(*snapshot, store.conversationFolder(conversationId), filePath, environment);
    if (!written)
        return fail(written.error().message, 1);
    std::fprintf(stderr, "sandpiper-cli: wrote %s: %d code cells, %d figures\n", qPrintable(filePath),
                 written->codeCells, written->figures);
    if (written->missingFigures > 0) {
        std::fprintf(stderr,
                     "sandpiper-cli: note: %d figures are no longer in the conversation's folder or were "
                     "refused; the notebook says so in their place\n",
                     written->missingFigures);
    }
    if (environment.pythonVersion.isEmpty())
        std::fprintf(stderr, "sandpiper-cli: note: the sandbox image's Python version is unknown (Docker or the "
                             "image is not available); the notebook does not name it\n");
    return 0;
}

// Why the image at PATH cannot go to the model, or empty. Decoded in full here, before a
// conversation is made or anything is sent, so that a broken file is refused up front.
QString imageProblem(const QString &path)
{
    // Said here: ModelImage's own words expect a file that is in /mnt/data already.
    if (const QFileInfo info(path); info.isFile() && info.size() > ModelImage::MaxFileBytes)
        return QStringLiteral("it is %1; images up to %2 can be sent")
            .arg(SandboxFolder::formatBytes(info.size()), SandboxFolder::formatBytes(ModelImage::MaxFileBytes));
    if (QString problem = ModelImage::check(path); !problem.isEmpty())
        return problem;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return file.errorString();
    QString error;
    ModelImage::checkBytes(file.read(ModelImage::MaxFileBytes + 1), QFileInfo(path).fileName(), &error);
    return error;
}

// Fills in CONFIG's API key (from KEYVARIABLE or the keychain) and checks that CONFIG of PRESET can
// be used; empty when it can, else why not.
QString completeProvider(ProviderConfig &config, const ProviderPreset &preset, const QString &keyVariable,
                         bool keyVariableGiven)
{
    // The model on this computer has its address once it runs, and is the only one when none is named.
    const bool local = config.id == LocalModelHost::providerId();
    if (config.baseUrl.isEmpty() && !local)
        return QStringLiteral("no base URL for provider \"%1\" (use --base-url)").arg(config.id);
    if (config.model.isEmpty() && !local)
        return QStringLiteral("no model chosen (use --model)");
    if (keyVariableGiven && !qEnvironmentVariableIsSet(qPrintable(keyVariable)))
        return QStringLiteral("the environment variable %1 is not set").arg(keyVariable);
    config.apiKey = QCoro::waitFor(ApiKeyStore::read(config.id, keyVariable)).key;
    if (config.apiKey.isEmpty() && preset.needsKey)
        return QStringLiteral("no API key for %1: set %2 or store a key in the app's settings")
            .arg(preset.name, keyVariable);
    return {};
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sandpiper-cli"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(BuildInfo::version));
    QCoreApplication::setOrganizationName(QStringLiteral("sandpiper"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sandpiper in the terminal: ask a model that can run Python."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption providerOption(
        QStringLiteral("provider"),
        QStringLiteral("Provider preset (openai, ollama, ...), or local: a GGUF model on this computer (--model "
                       "names it, --models lists them), run by llama-server (local/server, else the one on PATH) "
                       "for the command's duration."),
        QStringLiteral("NAME"));
    const QCommandLineOption baseUrlOption(QStringLiteral("base-url"), QStringLiteral("An OpenAI-compatible endpoint."),
                                           QStringLiteral("URL"));
    const QCommandLineOption modelOption(QStringLiteral("model"), QStringLiteral("The model."), QStringLiteral("M"));
    const QCommandLineOption keyOption(QStringLiteral("api-key-env"),
                                       QStringLiteral("Environment variable holding the API key."),
                                       QStringLiteral("VAR"));
    const QCommandLineOption approveOption(QStringLiteral("approve"),
                                           QStringLiteral("Running code: ask (default), auto or never."),
                                           QStringLiteral("ask|auto|never"));
    const QCommandLineOption setOption(QStringLiteral("set"), QStringLiteral("Override a setting for this run."),
                                       QStringLiteral("KEY=VALUE"));
    const QCommandLineOption profileOption(QStringLiteral("profile"),
                                           QStringLiteral("Keep settings and data in DIR instead of the user's."),
                                           QStringLiteral("DIR"));
    const QCommandLineOption newOption(QStringLiteral("new"),
                                       QStringLiteral("Start a new conversation (the default)."));
    const QCommandLineOption conversationOption(QStringLiteral("conversation"),
                                                QStringLiteral("Continue the conversation with this id."),
                                                QStringLiteral("ID"));
    const QCommandLineOption jsonOption(
        QStringLiteral("json"),
        QStringLiteral("Print one JSON event per line (with --probe: the report card as one JSON object)."));
    const QCommandLineOption attachOption(
        QStringLiteral("attach"),
        QStringLiteral("Hand the model FILE with the message (it lands in /mnt/data); repeatable."),
        QStringLiteral("FILE"));
    const QCommandLineOption imageOption(
        QStringLiteral("image"),
        QStringLiteral("Show the image FILE to the model with the message (PNG, JPEG, ...; scaled down to the "
                       "images/max_side setting; it lands in /mnt/data too); repeatable. A model that does not "
                       "take images gets nothing."),
        QStringLiteral("FILE"));
    const QCommandLineOption mcpConfigOption(
        QStringLiteral("mcp-config"),
        QStringLiteral("Read the MCP servers from FILE instead of the mcp.json beside the settings."),
        QStringLiteral("FILE"));
    const QCommandLineOption listToolsOption(
        QStringLiteral("list-tools"),
        QStringLiteral(
            "Connect to every enabled MCP server, print one line per tool (NAME<TAB>description) and exit: 0 "
            "when every server answered, 1 otherwise."));
    const QCommandLineOption exportNotebookOption(
        QStringLiteral("export-notebook"),
        QStringLiteral("Write the conversation given with --conversation as a Jupyter notebook to FILE and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption branchesOption(
        QStringLiteral("branches"),
        QStringLiteral("Print the messages of the conversation given with --conversation on every branch, one per line "
                       "(\"* ID ROLE: first words\", * on the branch shown; each message with versions indents the "
                       "branches below it; with --json one object per line) and exit."));
    const QCommandLineOption onOption(
        QStringLiteral("on"),
        QStringLiteral("Send the message after the message ID of the conversation given with --conversation, on "
                       "whichever branch it is (see --branches): the model reads the branch down to it, and the new "
                       "branch is the one shown."),
        QStringLiteral("ID"));
    const QCommandLineOption checkEngineOption(
        QStringLiteral("check-engine"),
        QStringLiteral("Check the engine of the settings (sandbox/engine): print where it is, how fast it answers and "
                       "how long a trivial execution of the sandbox image takes, and exit: 0 when it ran, 1 "
                       "otherwise."));
    const QCommandLineOption listEnginesOption(
        QStringLiteral("list-engines"),
        QStringLiteral("Print the docker command's contexts, which sandbox/engine can name, one per line "
                       "(NAME<TAB>endpoint), and exit."));
    const QCommandLineOption buildImageOption(
        QStringLiteral("build-image"),
        QStringLiteral("Put the sandbox image (sandbox/image) on the engine: sent from this machine to a remote "
                       "engine when this one has it, else built there; then exit: 0 when it is there."));
    const QCommandLineOption probeOption(
        QStringLiteral("probe"),
        QStringLiteral("Test the provider's model with a few short requests (a plain answer, one tool call, two "
                       "parallel calls, an answer after a tool result, a long prompt near the context window when it "
                       "is at most 16k tokens, an image when the server says the model takes them), print its report "
                       "card (with --json: as JSON) with the tokens it cost, keep the card in the settings and set "
                       "the provider's switches it calls for (text tool calls, reasoning sent back, the window), then "
                       "exit: 0 when the model answered, 1 otherwise."));
    const QCommandLineOption removeLeftoversOption(
        QStringLiteral("remove-leftovers"),
        QStringLiteral("Remove the sandbox containers of Sandpiper processes that no longer run (crashes), print "
                       "how many, and exit."));
    const QCommandLineOption getRunnerOption(
        QStringLiteral("get-runner"),
        QStringLiteral("Put llama-server on this machine's Docker engine for local models, as Settings › Models' \"Get "
                       "llama-server for Docker\" does: llama.cpp's published server image pulled "
                       "(local/runner_image), else built from Debian's llama.cpp-tools with mmdebstrap; print the "
                       "image and exit: 0 when it is there."));
    parser.addOption(getRunnerOption);
    const QCommandLineOption modelsOption(
        QStringLiteral("models"),
        QStringLiteral("Print the GGUF models on this computer, one per line (name<TAB>quantization<TAB>parameters<TAB>"
                       "trained context<TAB>tools<TAB>size<TAB>from<TAB>path; with --json one object per line): "
                       "Sandpiper's own folder, those LM Studio, llama.cpp and the Hugging Face cache downloaded, and "
                       "the folders of local/model_folders. Then exit."));
    const QCommandLineOption pullOption(
        QStringLiteral("pull"),
        QStringLiteral("Download the GGUF model REPO:QUANT (such as Qwen/Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M; without "
                       ":QUANT Q4_K_M, else the smallest) from the Hugging Face hub (HF_ENDPOINT for a mirror, "
                       "HF_TOKEN or the keychain for a gated model) into Sandpiper's models folder, checked against "
                       "the hub's SHA-256, with a progress line (with --json: one JSON object at the end), then "
                       "exit. Ctrl-C stops it; the same command goes on where it stopped."),
        QStringLiteral("REPO[:QUANT]"));
    parser.addOption(pullOption);
    parser.addOptions({providerOption,
                       baseUrlOption,
                       modelOption,
                       keyOption,
                       approveOption,
                       setOption,
                       profileOption,
                       newOption,
                       conversationOption,
                       jsonOption,
                       mcpConfigOption,
                       listToolsOption,
                       attachOption,
                       imageOption,
                       exportNotebookOption,
                       checkEngineOption,
                       listEnginesOption,
                       buildImageOption,
                       removeLeftoversOption,
                       modelsOption,
                       probeOption,
                       branchesOption,
                       onOption});
    parser.addPositionalArgument(QStringLiteral("prompt"),
                                 QStringLiteral("The message; read from standard input when absent."));
    parser.process(app);

    Settings settings(parser.value(profileOption));
    for (const QString &assignment : parser.values(setOption)) {
        if (const QString error = settings.addOverride(assignment); !error.isEmpty())
            return fail(error);
    }
    DockerCli::Engine::setChosen(settings.engine());
    // The keys below are known and take any text: these always hold.
    auto overrideSetting = [&](const QString &key, const QString &value) {
        const QString error = settings.addOverride(key + QLatin1Char('=') + value);
        Q_ASSERT_X(error.isEmpty(), "sandpiper-cli", qPrintable(error));
    };
    if (parser.isSet(providerOption)) {
        if (!findProviderPreset(parser.value(providerOption)))
            return fail(QStringLiteral("unknown provider \"%1\"").arg(parser.value(providerOption)));
        overrideSetting(QStringLiteral("provider"), parser.value(providerOption));
    }
    if (parser.isSet(baseUrlOption)) {
        const BaseUrl url = normalizeBaseUrl(parser.value(baseUrlOption));
        if (!url.error.isEmpty())
            return fail(url.error);
        if (!parser.isSet(providerOption))
            overrideSetting(QStringLiteral("provider"), QStringLiteral("custom"));
        overrideSetting(QStringLiteral("providers/%1/base_url").arg(settings.string(QStringLiteral("provider"))),
                        url.url);
    }
    if (parser.isSet(approveOption)) {
        if (!approvalPolicyFromName(parser.value(approveOption)))
            return fail(QStringLiteral("--approve takes ask, auto or never"));
        overrideSetting(QStringLiteral("approval/execute_python_code"), parser.value(approveOption));
    }

    // The engine's chores need no provider, conversation or message.
    const QString sandboxImage = settings.string(QStringLiteral("sandbox/image"));
    if (parser.isSet(checkEngineOption))
        return EngineCommands::check(sandboxImage);
    if (parser.isSet(listEnginesOption))
        return EngineCommands::listContexts();
    if (parser.isSet(buildImageOption))
        return EngineCommands::provideImage(sandboxImage);
    if (parser.isSet(removeLeftoversOption))
        return EngineCommands::removeLeftovers();

    if (parser.isSet(getRunnerOption))
        return EngineCommands::getRunner(settings.string(QStringLiteral("local/runner_image")));
    if (parser.isSet(modelsOption))
        return listModels(settings, parser.isSet(jsonOption));
    if (parser.isSet(pullOption))
        return pullModel(settings, parser.value(pullOption), parser.isSet(jsonOption));

    if (parser.isSet(exportNotebookOption)) {
        if (!parser.isSet(conversationOption))
            return fail(QStringLiteral("--export-notebook needs --conversation ID"));
        if (parser.isSet(newOption) || !parser.positionalArguments().isEmpty() || parser.isSet(attachOption) ||
            parser.isSet(imageOption))
            return fail(QStringLiteral("--export-notebook writes a file and sends no message"));
        ConversationStore store(settings.dataDirectory());
        if (auto opened = store.open(); !opened)
            return fail(opened.error().message, 1);
        return exportNotebook(settings, store, parser.value(conversationOption), parser.value(exportNotebookOption));
    }

    if (parser.isSet(branchesOption)) {
        if (!parser.isSet(conversationOption))
            return fail(QStringLiteral("--branches needs --conversation ID"));
        if (parser.isSet(newOption) || parser.isSet(onOption) || !parser.positionalArguments().isEmpty() ||
            parser.isSet(attachOption) || parser.isSet(imageOption))
            return fail(QStringLiteral("--branches prints the conversation and sends no message"));
        ConversationStore store(settings.dataDirectory());
        if (auto opened = store.open(); !opened)
            return fail(opened.error().message, 1);
        bool numeric = false;
        const qint64 conversationId = parser.value(conversationOption).toLongLong(&numeric);
        if (!numeric || !store.conversation(conversationId))
            return fail(QStringLiteral("there is no conversation %1").arg(parser.value(conversationOption)));
        return listBranches(store, conversationId, parser.isSet(jsonOption));
    }
    qint64 onMessage = 0;
    if (parser.isSet(onOption)) {
        bool numeric = false;
        onMessage = parser.value(onOption).toLongLong(&numeric);
        if (!numeric || onMessage <= 0)
            return fail(QStringLiteral("--on takes the id of a message (see --branches)"));
        if (!parser.isSet(conversationOption))
            return fail(QStringLiteral("--on needs --conversation ID"));
    }

    const QString keyVariableGiven = parser.isSet(keyOption) ? parser.value(keyOption) : QString();
    if (parser.isSet(probeOption)) {
        if (!parser.positionalArguments().isEmpty() || parser.isSet(conversationOption) || parser.isSet(attachOption) ||
            parser.isSet(imageOption))
            return fail(QStringLiteral("--probe sends its own requests and no message"));
        const QString providerId = settings.string(QStringLiteral("provider"));
        const auto preset = findProviderPreset(providerId);
        if (!preset)
            return fail(QStringLiteral("unknown provider \"%1\"").arg(providerId));
        ProviderConfig provider = settings.provider(providerId);
        if (parser.isSet(modelOption))
            provider.model = parser.value(modelOption);
        const QString keyVariable = keyVariableGiven.isEmpty() ? settings.apiKeyVariable(providerId) : keyVariableGiven;
        if (const QString problem = completeProvider(provider, *preset, keyVariable, !keyVariableGiven.isEmpty());
            !problem.isEmpty())
            return fail(problem);
        return ProbeCommand::run(settings, provider, parser.isSet(jsonOption));
    }

    const QString mcpConfig = parser.isSet(mcpConfigOption) ? parser.value(mcpConfigOption) : settings.mcpConfigFile();
    if (parser.isSet(mcpConfigOption) && !QFileInfo::exists(mcpConfig))
        return fail(QStringLiteral("there is no file %1").arg(mcpConfig));
    // Outlives the session: the agent's thread may still use it until it has retired.
    McpServerRegistry mcp({mcpConfig, settings.mcpLogFolder(),
                           std::chrono::seconds(std::max(1, settings.integer(QStringLiteral("mcp/timeout_seconds"))))});
    if (parser.isSet(listToolsOption))
        return listMcpTools(mcp);

    QString prompt = parser.positionalArguments().join(QLatin1Char(' '));
    if (prompt.isEmpty()) {
        QFile input;
        if (!input.open(stdin, QIODevice::ReadOnly))
            return fail(QStringLiteral("no prompt given"));
        prompt = QString::fromUtf8(input.readAll()).trimmed();
    }
    if (prompt.isEmpty())
        return fail(QStringLiteral("the prompt is empty"));

    if (parser.isSet(newOption) && parser.isSet(conversationOption))
        return fail(QStringLiteral("--new and --conversation exclude each other"));
    const QStringList images = parser.values(imageOption);
    for (const QString &path : images) {
        if (const QString problem = imageProblem(path); !problem.isEmpty())
            return fail(QStringLiteral("cannot send the image %1: %2").arg(path, problem));
    }
    ConversationStore store(settings.dataDirectory());
    if (auto opened = store.open(); !opened)
        return fail(opened.error().message, 1);
    if (!store.lastWarning().isEmpty())
        std::fprintf(stderr, "sandpiper-cli: note: %s\n", qPrintable(store.lastWarning()));
    std::optional<Conversation> continued;
    if (parser.isSet(conversationOption)) {
        bool numeric = false;
        const auto found = store.conversation(parser.value(conversationOption).toLongLong(&numeric));
        if (!numeric || !found)
            return fail(QStringLiteral("there is no conversation %1").arg(parser.value(conversationOption)));
        continued = *found;
    }

    // A conversation goes on with its own provider and model unless the command line names others.
    const bool providerGiven = parser.isSet(providerOption) || parser.isSet(baseUrlOption);
    const QString providerId = continued && !providerGiven && !continued->provider.isEmpty()
                                   ? continued->provider
                                   : settings.string(QStringLiteral("provider"));
    const auto preset = findProviderPreset(providerId);
    if (!preset && continued)
        return fail(QStringLiteral("conversation %1 uses the provider \"%2\", which this version does not know "
                                   "(choose one with --provider)")
                        .arg(continued->id)
                        .arg(providerId));
    if (!preset)
        return fail(QStringLiteral("unknown provider \"%1\"").arg(providerId));
    AgentConfig config = AgentSettings::read(settings);
    config.mcp = &mcp;
    config.provider = settings.provider(providerId);
    if (parser.isSet(modelOption))
        config.provider.model = parser.value(modelOption);
    else if (continued && continued->provider == providerId && !continued->model.isEmpty())
        config.provider.model = continued->model;
    const QString keyVariable = keyVariableGiven.isEmpty() ? settings.apiKeyVariable(providerId) : keyVariableGiven;
    if (const QString problem = completeProvider(config.provider, *preset, keyVariable, !keyVariableGiven.isEmpty());
        !problem.isEmpty())
        return fail(problem);
    // "local" is the model on this computer, run by the app's own LocalModelHost for the command's
    // duration: started here, so that a model that cannot run fails before anything is stored.
    LocalModelHost localModels(&settings);
    if (providerId == LocalModelHost::providerId()) {
        if (const Result<QUrl> url = startLocalModel(localModels, config.provider.model); !url)
            return fail(url.error(), 1);
    }

    qint64 conversationId = 0;
    const bool newConversation = !continued;
    if (continued) {
        conversationId = continued->id;
        // What answers from now on is the conversation's model, in the app too.
        if (continued->provider != providerId || continued->model != config.provider.model) {
            if (auto saved = store.setConversationModel(conversationId, providerId, config.provider.model); !saved)
                return fail(saved.error().message, 1);
        }
    } else {
        auto created = store.createConversation(providerId, config.provider.model);
        if (!created)
            return fail(created.error().message, 1);
        conversationId = created->id;
    }
    config.sandbox = settings.sandbox(QString::number(conversationId), store.conversationFolder(conversationId));
    if (config.pythonEnabled) {
        const QString problem = sandboxProblem(config.sandbox.image);
        if (!problem.isEmpty()) {
            std::fprintf(stderr, "sandpiper-cli: note: Python is not available: %s\n", qPrintable(problem));
            config.pythonEnabled = false;
        }
    }

    int exitCode = 1;
    bool refused = false; // the message was not sent (nor stored)
    {
        ConversationSession session(conversationId, &store, config);
        session.setLocalModels(&localModels);
        if (auto loaded = session.load(); !loaded)
            return fail(loaded.error().message, 1);
        for (const QString &path : parser.values(attachOption)) {
            if (auto attached = session.attach(path); !attached)
                return fail(QStringLiteral("cannot attach %1: %2").arg(path, attached.error().message));
        }
        // The GUI's path: copied into the folder, then scaled and sent by the agent, which refuses
        // them (SendRefused) for a model that does not take images.
        for (const QString &path : images) {
            if (auto attached = session.attachImage(path); !attached)
                return fail(QStringLiteral("cannot send the image %1: %2").arg(path, attached.error().message));
        }
        if (!parser.isSet(jsonOption) && !parser.isSet(conversationOption))
            std::fprintf(stderr, "sandpiper-cli: conversation %lld\n", qlonglong(conversationId));
        CliSession printer(&session, parser.isSet(jsonOption) ? CliSession::Output::Json : CliSession::Output::Text);
        QObject::connect(&session, &ConversationSession::toolAllowedAlways, &app,
                         [&settings, &session](const QString &tool) {
                             McpTrust::allowAlways(settings, tool);
                             session.setApprovals(AgentSettings::read(settings).approval);
                         });
        QObject::connect(&printer, &CliSession::finished, &app, &QCoreApplication::quit);
        QObject::connect(&session, &ConversationSession::agentEvent, &app, [&refused](const AgentEvent &event) {
            refused = refused || event.kind == AgentEvent::Kind::SendRefused;
        });

        // Ctrl-C stops the answer; a second one ends the program.
        std::signal(SIGINT, [](int) { interruptRequests = interruptRequests + 1; });
        QTimer interruptPoll;
        QObject::connect(&interruptPoll, &QTimer::timeout, &app, [&session] {
            if (interruptRequests == 1) {
                interruptRequests = 2;
                session.stop();
            } else if (interruptRequests > 2) {
                std::_Exit(130);
            }
        });
        interruptPoll.start(100);

        if (onMessage == 0) {
            session.send(prompt);
        } else if (auto sent = session.sendAfter(onMessage, prompt); !sent) {
            return fail(sent.error().kind == StoreError::Kind::NotFound
                            ? QStringLiteral("conversation %1 has no message %2").arg(conversationId).arg(onMessage)
                            : sent.error().message);
        }
        app.exec();
        exitCode = printer.exitCode();
    }
    // The model's server ends with the command.
    localModels.stop();
    // The agent saves its last words before the store goes.
    AgentThread::waitForRetiredThreads(std::chrono::seconds(10));
    if (refused) {
        if (!images.isEmpty()) {
            std::fprintf(stderr,
                         "sandpiper-cli: note: nothing was sent; if %s does take images, say so with --set "
                         "providers/%s/image_models=%s=yes\n",
                         qPrintable(config.provider.model), qPrintable(providerId), qPrintable(config.provider.model));
        }
        // A conversation made for a message that never went leaves nothing behind.
        const auto messages = store.messages(conversationId);
        if (newConversation && messages && messages->isEmpty()) {
            if (auto deleted = store.deleteConversation(conversationId); !deleted)
                std::fprintf(stderr, "sandpiper-cli: note: %s\n", qPrintable(deleted.error().message));
        }
    }
    return exitCode;
}

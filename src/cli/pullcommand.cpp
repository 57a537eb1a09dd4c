#include "pullcommand.h"
#include "session/localmodelhost.h"

#include "terminalfilter.h"

#include "llm/apikeystore.h"
#include "localmodels/hubclient.h"
#include "localmodels/modeldownload.h"
#include "settings/settings.h"

#include <QCoroTask>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTimer>

#include <csignal>
#include <cstdio>

#include <unistd.h>

namespace Sandpiper {

namespace {

volatile std::sig_atomic_t interrupted = 0;

QString size(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

QString duration(qint64 seconds)
{
    if (seconds < 0)
        return QStringLiteral("?");
    if (seconds >= 3600)
        return QStringLiteral("%1 h %2 min").arg(seconds / 3600).arg(seconds % 3600 / 60);
    if (seconds >= 60)
        return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    return QStringLiteral("%1 s").arg(seconds);
}

int failed(const QString &message, bool json)
{
    if (json)
        std::printf("%s\n",
                    QJsonDocument(QJsonObject{{QStringLiteral("ok"), false}, {QStringLiteral("error"), message}})
                        .toJson(QJsonDocument::Compact)
                        .constData());
    std::fprintf(stderr, "sandpiper-cli: %s\n", qPrintable(TerminalFilter::clean(message)));
    return 1;
}

} // namespace

int pullModel(const Settings &settings, const QString &what, bool json)
{
    const qsizetype colon = what.lastIndexOf(QLatin1Char(':'));
    const QString repository = colon < 0 ? what : what.left(colon);
    const QString quantization = colon < 0 ? QString() : what.mid(colon + 1);
    if (!HubClient::validRepository(repository))
        return failed(QStringLiteral("--pull takes a repository of the hub as owner/name[:QUANT], such as "
                                     "Qwen/Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M"),
                      json);

    HubClient hub;
    const QString token =
        QCoro::waitFor(ApiKeyStore::read(QStringLiteral("huggingface"), QStringLiteral("HF_TOKEN"))).key;
    hub.setToken(token);
    const auto models = QCoro::waitFor(hub.models(repository));
    if (!models)
        return failed(models.error(), json);
    QString why;
    const auto model = HubClient::choose(*models, quantization, &why);
    if (!model)
        return failed(QStringLiteral("%1: %2").arg(repository, why), json);

    ModelDownload download(hub.endpoint(), repository, *model, settings.localModelsFolder(),
                           LocalModelHost::downloadOptions(settings, token));
    if (!json) {
        std::fprintf(stderr, "sandpiper-cli: %s %s (%s, %s%s) from %s into %s\n",
                     quantization.isEmpty() ? "pulling, as no quantization was named," : "pulling",
                     qPrintable(TerminalFilter::clean(model->name)),
                     qPrintable(model->quantization.isEmpty() ? QStringLiteral("?") : model->quantization),
                     qPrintable(size(model->bytes())),
                     model->files.size() > 1 ? qPrintable(QStringLiteral(", %1 files").arg(model->files.size())) : "",
                     qPrintable(repository), qPrintable(TerminalFilter::clean(download.folder())));
    }

    QEventLoop loop;
    QObject::connect(&download, &ModelDownload::finished, &loop, &QEventLoop::quit);
    const bool terminal = isatty(fileno(stderr));
    bool lineShown = false;
    QElapsedTimer sinceLine;
    if (!json) {
        // One line, written over (\r) at most four times a second.
        QObject::connect(
            &download, &ModelDownload::progressed, &loop, [&](qint64 done, qint64 total, double speed, qint64 left) {
                if (lineShown && sinceLine.isValid() && sinceLine.elapsed() < 250 && done < total)
                    return;
                sinceLine.start();
                lineShown = true;
                std::fprintf(stderr, "\r%5.1f%%  %s of %s  %s/s  %s left%s",
                             total > 0 ? 100.0 * double(done) / double(total) : 0.0, qPrintable(size(done)),
                             qPrintable(size(total)), qPrintable(size(qint64(speed))), qPrintable(duration(left)),
                             terminal ? "\033[K" : "");
                std::fflush(stderr);
            });
        QObject::connect(&download, &ModelDownload::stateChanged, &loop,
                         [&](ModelDownload::State state, const QString &message) {
                             // Retries and checks are said on a line of their own.
                             if (state != ModelDownload::State::Checking &&
                                 !message.startsWith(QLatin1String("The connection dropped")))
                                 return;
                             std::fprintf(stderr, "%ssandpiper-cli: %s\n", lineShown ? "\n" : "",
                                          qPrintable(TerminalFilter::clean(message)));
                             lineShown = false;
                         });
    }

    // Ctrl-C pauses: what came stays in the .part for the next pull.
    interrupted = 0;
    std::signal(SIGINT, [](int) { interrupted = 1; });
    QTimer interruptPoll;
    QObject::connect(&interruptPoll, &QTimer::timeout, &loop, [&] {
        if (interrupted) {
            download.pause();
            loop.exit(130);
        }
    });
    interruptPoll.start(100);

    download.start();
    // A model already here, or one that cannot start, is done at once.
    const bool done =
        download.state() == ModelDownload::State::Failed || download.state() == ModelDownload::State::Finished;
    const int code = done ? 0 : loop.exec();
    std::signal(SIGINT, SIG_DFL);
    if (lineShown)
        std::fprintf(stderr, "\n");
    if (code == 130) {
        const QString message = QStringLiteral("stopped at %1 of %2; the same command goes on from there")
                                    .arg(size(download.bytesDone()), size(download.bytesTotal()));
        if (json)
            std::printf("%s\n", QJsonDocument(QJsonObject{{QStringLiteral("ok"), false},
                                                          {QStringLiteral("error"), message},
                                                          {QStringLiteral("bytes_done"), download.bytesDone()}})
                                    .toJson(QJsonDocument::Compact)
                                    .constData());
        std::fprintf(stderr, "sandpiper-cli: %s\n", qPrintable(message));
        return 130;
    }
    if (download.state() != ModelDownload::State::Finished)
        return failed(download.message(), json);

    if (json) {
        QJsonArray files;
        for (const HubFile &file : model->files)
            files.append(QJsonObject{{QStringLiteral("path"),
                                      QString(download.folder() + QLatin1Char('/') + QFileInfo(file.path).fileName())},
                                     {QStringLiteral("bytes"), file.size},
                                     {QStringLiteral("sha256"), file.sha256}});
        std::printf("%s\n", QJsonDocument(QJsonObject{{QStringLiteral("ok"), true},
                                                      {QStringLiteral("repository"), repository},
                                                      {QStringLiteral("model"), model->name},
                                                      {QStringLiteral("quantization"), model->quantization},
                                                      {QStringLiteral("path"), download.modelPath()},
                                                      {QStringLiteral("bytes"), model->bytes()},
                                                      {QStringLiteral("files"), files}})
                                .toJson(QJsonDocument::Compact)
                                .constData());
    } else {
        std::fprintf(stderr, "sandpiper-cli: %s\n", qPrintable(TerminalFilter::clean(download.message())));
        std::printf("%s\n", qPrintable(TerminalFilter::clean(download.modelPath())));
    }
    std::fflush(stdout);
    return 0;
}

} // namespace Sandpiper

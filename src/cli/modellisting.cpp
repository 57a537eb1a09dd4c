#include "modellisting.h"
#include "session/localmodelhost.h"

#include "settings/settings.h"
#include "terminalfilter.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <cstdio>

namespace Sandpiper {

namespace {

QJsonObject asJson(const ModelFile &model)
{
    QJsonObject object{{QStringLiteral("path"), model.path},
                       {QStringLiteral("source"), ModelShelf::sourceName(model.source)},
                       {QStringLiteral("bytes"), model.bytes},
                       {QStringLiteral("runnable"), model.runnable()}};
    if (!model.problem.isEmpty())
        object.insert(QStringLiteral("problem"), model.problem);
    if (model.info) {
        object.insert(QStringLiteral("name"), model.info->name);
        object.insert(QStringLiteral("architecture"), model.info->architecture);
        object.insert(QStringLiteral("quantization"), model.info->quantization);
        object.insert(QStringLiteral("parameters"), model.info->parameterCount);
        object.insert(QStringLiteral("trained_context"), model.info->trainedContext);
        object.insert(QStringLiteral("template_takes_tools"), model.info->templateTakesTools);
        object.insert(QStringLiteral("files"), model.info->splitCount);
    }
    return object;
}

} // namespace

int listModels(const Settings &settings, bool json)
{
    const QList<ModelFile> models = modelsOnThisComputer(settings);
    for (const ModelFile &model : models) {
        if (json) {
            std::printf("%s\n", QJsonDocument(asJson(model)).toJson(QJsonDocument::Compact).constData());
            continue;
        }
        // Names and paths come from files downloaded from anywhere: shown without controls.
        const QString name =
            model.info && !model.info->name.isEmpty() ? model.info->name : QFileInfo(model.path).completeBaseName();
        const QString facts =
            model.info ? QStringLiteral("%1\t%2\t%3\t%4")
                             .arg(model.info->quantization.isEmpty() ? QStringLiteral("?") : model.info->quantization,
                                  GgufInfo::parameterLabel(model.info->parameterCount),
                                  model.info->trainedContext > 0 ? QString::number(model.info->trainedContext)
                                                                 : QStringLiteral("?"),
                                  model.info->templateTakesTools ? QStringLiteral("tools") : QStringLiteral("no tools"))
                       : QStringLiteral("?\t?\t?\t?");
        // Sizes in the units people read (a small model is not "0.0 GB"), the same in every locale.
        std::printf("%s\t%s\t%s\t%s\t%s\n", qPrintable(TerminalFilter::clean(name)), qPrintable(facts),
                    qPrintable(QLocale::c().formattedDataSize(model.bytes, 1, QLocale::DataSizeSIFormat)),
                    qPrintable(ModelShelf::sourceName(model.source)), qPrintable(TerminalFilter::clean(model.path)));
        if (!model.problem.isEmpty())
            std::fprintf(stderr, "sandpiper-cli: %s: %s\n", qPrintable(TerminalFilter::clean(model.path)),
                         qPrintable(model.problem));
    }
    if (models.isEmpty() && !json)
        std::fprintf(stderr,
                     "sandpiper-cli: no GGUF model on this computer (looked in %s and the folders of LM "
                     "Studio, llama.cpp and Hugging Face)\n",
                     qPrintable(settings.localModelsFolder()));
    std::fflush(stdout);
    return 0;
}

} // namespace Sandpiper

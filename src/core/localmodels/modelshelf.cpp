#include "localmodels/modelshelf.h"

#include "localmodels/modeldownload.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QRegularExpression>
#include <QSet>
#include <QTimeZone>

#include <algorithm>

namespace Sandpiper {

namespace {

QString environmentFolder(const char *variable, const QString &fallback)
{
    const QString set = qEnvironmentVariable(variable);
    return set.isEmpty() ? fallback : set;
}

// NAME-00002-of-00003.gguf: the part and the count of a split model.
const QRegularExpression &splitName()
{
    static const QRegularExpression pattern(QStringLiteral("^(.*)-(\\d{5})-of-(\\d{5})\\.gguf$"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

// PATH's header, read once for each version of the file (its size and time of change): the
// window asks for the shelf every few seconds, and a large model's header holds its vocabulary.
Result<GgufInfo> readHeader(const QString &path)
{
    struct Read {
        qint64 size = 0;
        QDateTime changed;
        Result<GgufInfo> header = QString();
    };
    static QMutex mutex;
    static QHash<QString, Read> headers;
    const QFileInfo file(path);
    const qint64 size = file.size();
    const QDateTime changed = file.lastModified(QTimeZone::UTC);
    {
        const QMutexLocker lock(&mutex);
        if (const auto found = headers.constFind(path);
            found != headers.cend() && found->size == size && found->changed == changed)
            return found->header;
    }
    Result<GgufInfo> header = GgufHeader::read(path);
    const QMutexLocker lock(&mutex);
    headers.insert(path, {size, changed, header});
    return header;
}

} // namespace

QList<ModelFolder> ModelShelf::folders(const QString &ownFolder, const QStringList &added)
{
    const QString home = QDir::homePath();
    const QString cache = environmentFolder("XDG_CACHE_HOME", home + QStringLiteral("/.cache"));
    const QString huggingFace = environmentFolder("HF_HOME", cache + QStringLiteral("/huggingface"));
    QList<ModelFolder> folders{
        {ownFolder, ModelFolder::Source::Sandpiper},
        {home + QStringLiteral("/.lmstudio/models"), ModelFolder::Source::LmStudio},
        {environmentFolder("LLAMA_CACHE", cache + QStringLiteral("/llama.cpp")), ModelFolder::Source::LlamaCpp},
        {environmentFolder("HF_HUB_CACHE", huggingFace + QStringLiteral("/hub")), ModelFolder::Source::HuggingFace},
    };
    for (const QString &folder : added) {
        if (!folder.trimmed().isEmpty())
            folders.append({QDir::cleanPath(folder.trimmed()), ModelFolder::Source::Added});
    }
    return folders;
}

QList<ModelFile> ModelShelf::scan(const QList<ModelFolder> &folders)
{
    QList<ModelFile> models;
    QSet<QString> seen; // a file reached twice (an added folder inside another, a link) counts once
    for (const ModelFolder &folder : folders) {
        // Links to files are followed (the Hugging Face cache keeps its files as links to blobs),
        // links to folders are not, so that no loop can hold the scan.
        QDirIterator files(folder.path, {QStringLiteral("*.gguf")}, QDir::Files | QDir::Readable | QDir::Hidden,
                           QDirIterator::Subdirectories);
        QHash<QString, qsizetype> splitModels; // the first part's path without its number -> row
        QList<ModelFile> found;
        while (files.hasNext()) {
            const QFileInfo file = files.nextFileInfo();
            const QString real = file.canonicalFilePath();
            if (real.isEmpty() || seen.contains(real))
                continue;
            seen.insert(real);
            const auto split = splitName().match(file.fileName());
            if (split.hasMatch()) {
                const QString key = file.absolutePath() + QLatin1Char('/') + split.captured(1);
                if (const auto row = splitModels.constFind(key); row != splitModels.cend()) {
                    ModelFile &model = found[*row];
                    model.bytes += file.size();
                    ++model.partsFound;
                    if (split.captured(2).toInt() == 1)
                        model.path = file.absoluteFilePath();
                    continue;
                }
                splitModels.insert(key, found.size());
            }
            ModelFile model;
            model.path = file.absoluteFilePath();
            model.source = folder.source;
            model.bytes = file.size();
            found.append(model);
        }
        for (ModelFile &model : found) {
            auto info = readHeader(model.path);
            if (!info) {
                model.problem = info.error();
                models.append(model);
                continue;
            }
            // A vision projector goes with a model; it is not one to chat with.
            if (info->architecture == QLatin1String("clip"))
                continue;
            if (model.partsFound < info->splitCount)
                model.problem = tr("Only %1 of its %2 files are here: download the model again (Settings › Models) to "
                                   "get the rest.")
                                    .arg(model.partsFound)
                                    .arg(info->splitCount);
            model.info = std::move(info).value();
            models.append(model);
        }
    }
    return models;
}

QString ModelShelf::sourceName(ModelFolder::Source source)
{
    switch (source) {
    case ModelFolder::Source::Sandpiper:
        return tr("Sandpiper");
    case ModelFolder::Source::LmStudio:
        return tr("LM Studio");
    case ModelFolder::Source::LlamaCpp:
        return tr("llama.cpp");
    case ModelFolder::Source::HuggingFace:
        return tr("Hugging Face");
    case ModelFolder::Source::Added:
        break;
    }
    return tr("added folder");
}

bool ModelShelf::downloaded(const QString &ownFolder, const QString &repository, const QString &quantization)
{
    const QStringList files = QDir(ModelDownload::folderFor(ownFolder, repository))
                                  .entryList({QStringLiteral("*.gguf")}, QDir::Files | QDir::Readable);
    return std::any_of(files.cbegin(), files.cend(),
                       [&](const QString &file) { return file.contains(quantization, Qt::CaseInsensitive); });
}

} // namespace Sandpiper

#pragma once

#include "localmodels/ggufheader.h"

#include <QList>
#include <QString>

#include <optional>

namespace Sandpiper {

// A folder where GGUF models may be, and who put them there.
struct ModelFolder {
    enum class Source { Sandpiper, LmStudio, LlamaCpp, HuggingFace, Added };
    QString path;
    Source source = Source::Added;
};

// One model found on this computer: a GGUF file, or the first of a model split into files.
struct ModelFile {
    QString path;
    ModelFolder::Source source = ModelFolder::Source::Added;
    qint64 bytes = 0; // all its parts
    int partsFound = 1;
    std::optional<GgufInfo> info; // absent when the header could not be read
    QString problem;              // why it cannot be run (a damaged header, a missing part), else empty

    bool runnable() const { return info && problem.isEmpty(); }
};

// The GGUF models already on this computer: Sandpiper's own folder, and, offered where they are
// (never moved), those that LM Studio, llama.cpp and the Hugging Face cache downloaded, and the
// folders the user added. Only headers are read; a vision projector (mmproj) is no model of its
// own, and files being downloaded (.part, .incomplete) are not GGUF files yet.
class ModelShelf
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::ModelShelf)

public:
    // OWNFOLDER first, then the other applications' folders as this user's environment places
    // them, then ADDED.
    static QList<ModelFolder> folders(const QString &ownFolder, const QStringList &added);
    static QList<ModelFile> scan(const QList<ModelFolder> &folders);
    static QString sourceName(ModelFolder::Source source);
    // Whether a download of REPOSITORY's QUANTIZATION (a name part of its file, as "Q4_K_M")
    // finished into OWNFOLDER: it is on this computer already. Only names are read.
    static bool downloaded(const QString &ownFolder, const QString &repository, const QString &quantization);
};

} // namespace Sandpiper

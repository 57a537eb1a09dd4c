#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace Sandpiper {

// A model Sandpiper suggests: good at calling tools and writing code for its size.
struct RecommendedModel {
    QString repository;       // on the Hugging Face hub
    QString quantization;     // the file of that quantization
    qint64 downloadBytes = 0; // about; the hub's listing says exactly when it is downloaded
    qint64 memoryBytes = 0;   // the weights and a working context
    QString reason;           // one line, for the user
};

// The short list of models to download, smallest first.
class RecommendedModels
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::RecommendedModels)

public:
    static QList<RecommendedModel> all();
    // Those that fit MEMORYBYTES (this computer's memory; 0: unknown, all of them).
    static QList<RecommendedModel> fitting(qint64 memoryBytes);
    // The one to offer first: the largest that fits in half of MEMORYBYTES, else the smallest.
    static RecommendedModel best(qint64 memoryBytes);
};

} // namespace Sandpiper

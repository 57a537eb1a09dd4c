#pragma once

#include "llm/providerconfig.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <QCoroTask>

#include <chrono>

namespace Sandpiper {

struct ModelList;

// Finds the local OpenAI-compatible servers that need no key (Ollama, LM Studio, llama.cpp,
// vLLM) and tells the user, in plain words, why a configured provider does not answer.
class ProviderDetector
{
    Q_DECLARE_TR_FUNCTIONS(ProviderDetector)

public:
    struct Candidate {
        QString presetId;
        QString baseUrl;
    };
    struct Found {
        QString presetId;
        QString baseUrl;
        QStringList models;
    };
    struct Verdict {
        enum class Kind { Ok, WrongKey, Unreachable, NotOpenAiCompatible, Failed };
        Kind kind = Kind::Failed;
        QStringList models;
        QString message; // for the user
        bool ok() const { return kind == Kind::Ok; }
    };

    // The presets that need no key, at their usual local addresses.
    static QList<Candidate> localCandidates();

    // Asks every candidate for GET /models at once; a candidate counts when it answers in the
    // OpenAI format within TIMEOUT. The result keeps the order of CANDIDATES.
    static QCoro::Task<QList<Found>> detect(QList<Candidate> candidates,
                                            std::chrono::milliseconds timeout = std::chrono::milliseconds(1500));

    static QCoro::Task<Verdict> testConnection(ProviderConfig config);

private:
    static Verdict verdictFor(const ModelList &list);
};

} // namespace Sandpiper

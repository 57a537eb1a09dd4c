#pragma once

#include "sandbox/dockercli.h"
#include "sandbox/enginestatus.h"
#include "sandbox/imagemanager.h"

#include <QList>
#include <QObject>
#include <QString>

#include <QCoroTask>

namespace Sandpiper {

// The engine's chores a user asks for, in the settings or from sandpiper-cli: checking an engine,
// listing the docker command's contexts, putting the sandbox image on an engine, removing
// Sandpiper's containers. What it says is worded for the user; it shows nothing itself.
class EngineService : public QObject
{
    Q_OBJECT

public:
    // A context of the docker command, which the engine setting can name.
    struct Context {
        QString name;
        QString endpoint; // its DOCKER_HOST, such as unix:///var/run/docker.sock; may be empty
    };

    // What checkEngine() found.
    struct Check {
        EngineStatus status;
        qint64 trivialExecutionMs = -1; // -1: none ran, or the engine does not answer

        // True when the engine answers and ran the image.
        bool ok() const { return status.answers && trivialExecutionMs >= 0; }
        // The engine, where it is, its round trip and the trivial execution, in a sentence.
        QString summary() const;
    };

    // What provideImage() came to.
    struct ImageOutcome {
        bool ready = false;
        QString message;          // for the user, success or failure
        bool buildFailed = false; // the build ran and failed: its output says why
    };

    explicit EngineService(QObject *parent = nullptr);

    // The contexts of the docker command, without those whose names cannot be a setting; none
    // when it has no contexts (podman) or does not answer.
    static QCoro::Task<QList<Context>> contexts();

    // Asks ENGINE whether it answers, where it is and what it enforces and, when it answers, how
    // long a trivial execution of IMAGE takes there. checking() says how far it got.
    QCoro::Task<Check> checkEngine(QString image, DockerCli::Engine engine);

    // Puts IMAGE on ENGINE: another engine than this machine's own gets it sent from this
    // machine's when that has it; otherwise (or when sending fails) it is built there from
    // CONTEXT, a folder with the sandbox's Dockerfile (empty: none was found). Each step is
    // announced by imageStep(), and every line of its output comes as imageOutput().
    QCoro::Task<ImageOutcome> provideImage(QString image, DockerCli::Engine engine,
                                           QString context = sandboxBuildContext());

    // The folder with the sandbox's Dockerfile: installed next to the program, or the source
    // tree's while developing; empty when there is none.
    static QString sandboxBuildContext();

    // Removes every Sandpiper sandbox container (running kernels too); how many.
    static QCoro::Task<int> removeAllContainers();
    // Removes the containers of Sandpiper processes of this machine that no longer run; how many.
    static QCoro::Task<int> removeLeftoverContainers();

Q_SIGNALS:
    void checking(const QString &line);
    void imageStep(const QString &text);
    void imageOutput(const QString &line);

private:
    ImageManager m_images;
};

} // namespace Sandpiper

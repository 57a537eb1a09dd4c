#include "localmodels/backgroundwork.h"

namespace Sandpiper {

QThreadPool *runnerThreads()
{
    // A few: the probe of one program may wait out its timeout while Docker is asked about images.
    // At exit the pool waits for its work, so a container being removed is removed.
    static QThreadPool pool;
    static const bool sized = [] {
        pool.setMaxThreadCount(4);
        return true;
    }();
    Q_UNUSED(sized);
    return &pool;
}

} // namespace Sandpiper

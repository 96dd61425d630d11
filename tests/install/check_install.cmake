# cmake -DBUILD_DIR=... -DWORK_DIR=... -DSOURCE_DIR=... -DLIBDIR=... -DHELPER_FROM_LIBDIR=... -P check_install.cmake
# Installs the build into a scratch prefix, then builds and runs a consumer through
# find_package(asyncgemm) and another through pkg-config, and checks the self-check's helper at the
# path the installed library computes: LIBDIR/HELPER_FROM_LIBDIR/asyncgemm-selfcheck.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} COMMAND_ERROR_IS_FATAL ANY
                OUTPUT_QUIET)
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/consumer -B ${WORK_DIR}/consumer
                        -DCMAKE_PREFIX_PATH=${prefix} COMMAND_ERROR_IS_FATAL ANY OUTPUT_QUIET)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer COMMAND_ERROR_IS_FATAL ANY OUTPUT_QUIET)
set(libdir ${prefix}/${LIBDIR})
execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir} ${WORK_DIR}/consumer/consumer
                COMMAND_ERROR_IS_FATAL ANY)

find_program(PKG_CONFIG pkg-config)
find_program(CC NAMES cc gcc REQUIRED)
if(PKG_CONFIG)
    file(GLOB_RECURSE pc ${prefix}/asyncgemm.pc)
    get_filename_component(pcdir ${pc} DIRECTORY)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pcdir} ${PKG_CONFIG} --cflags --libs asyncgemm
                    OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
    separate_arguments(flags UNIX_COMMAND "${flags}")
    execute_process(COMMAND ${CC} -std=c99 ${SOURCE_DIR}/consumer/consumer.c ${flags} -o ${WORK_DIR}/pc_consumer
                    COMMAND_ERROR_IS_FATAL ANY)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir} ${WORK_DIR}/pc_consumer
                    COMMAND_ERROR_IS_FATAL ANY)
else()
    message(STATUS "pkg-config not found: the pkg-config consumer is not built")
endif()

set(HELPER ${prefix}/${LIBDIR}/${HELPER_FROM_LIBDIR}/asyncgemm-selfcheck)
include(${CMAKE_CURRENT_LIST_DIR}/../check_helper.cmake)

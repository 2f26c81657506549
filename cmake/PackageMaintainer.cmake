# Who maintains the Debian package, for the control file's Maintainer and the changelog's
# trailer: GPUPLAN_MAINTAINER when set, else Debian's DEBFULLNAME and DEBEMAIL (DEBEMAIL alone
# when it already reads 'Full Name <email>'). gpuplan has no address of its own to fall back on.

# Sets `out` to "Full Name <email>", or to "" with `problem` saying what to set.
function(gpuplan_maintainer configured out problem)
  set(name "$ENV{DEBFULLNAME}")
  set(email "$ENV{DEBEMAIL}")
  set(found "")
  if(NOT configured STREQUAL "")
    set(found "${configured}")
  elseif(email MATCHES "^[^<>]+ <[^<>@ ]+@[^<>@ ]+>$")
    set(found "${email}")
  elseif(NOT name STREQUAL "" AND NOT email STREQUAL "")
    set(found "${name} <${email}>")
  endif()
  set(${problem} "" PARENT_SCOPE)
  if(found STREQUAL "")
    set(${problem}
        "the Debian package needs a maintainer and gpuplan has none of its own: configure with -DGPUPLAN_MAINTAINER='Full Name <email>', or set DEBFULLNAME and DEBEMAIL"
        PARENT_SCOPE)
  elseif(NOT found MATCHES "^[^<>]+ <[^<>@ ]+@[^<>@ ]+>$")
    set(${problem} "the maintainer must read 'Full Name <email>', got '${found}'" PARENT_SCOPE)
    set(found "")
  endif()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()
